#define FACTOR 8
#define OFFSET 69

int convert(int x);
