#define FACTOR 9
#define OFFSET 11

int convert(int x);
