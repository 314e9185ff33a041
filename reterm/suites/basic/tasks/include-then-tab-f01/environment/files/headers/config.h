#define FACTOR 4
#define OFFSET 28

int convert(int x);
