#include <stdio.h>
#include "units.h"

int main(void) {
    int total = 0;
    for (int i = 1; i <= 12; i++)
        total += convert(i);
    printf("cedar total=%d\n", total);
    return 0;
}
