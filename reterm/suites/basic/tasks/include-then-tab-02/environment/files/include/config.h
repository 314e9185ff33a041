#define FACTOR 9
#define OFFSET 89

int convert(int x);
