#include <stdio.h>
#include "config.h"

int main(void) {
    int total = 0;
    for (int i = 1; i <= 3; i++)
        total += convert(i);
    printf("indigo total=%d\n", total);
    return 0;
}
