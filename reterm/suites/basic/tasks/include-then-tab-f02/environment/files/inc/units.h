#define FACTOR 4
#define OFFSET 70

int convert(int x);
