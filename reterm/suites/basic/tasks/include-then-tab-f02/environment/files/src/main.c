#include <stdio.h>
#include "units.h"

int main(void) {
    int total = 0;
    for (int i = 1; i <= 5; i++)
        total += convert(i);
    printf("nova total=%d\n", total);
    return 0;
}
