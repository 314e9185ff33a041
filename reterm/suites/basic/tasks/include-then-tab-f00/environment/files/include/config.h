#define FACTOR 5
#define OFFSET 20

int convert(int x);
