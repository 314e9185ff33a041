#define FACTOR 5
#define OFFSET 67

int convert(int x);
