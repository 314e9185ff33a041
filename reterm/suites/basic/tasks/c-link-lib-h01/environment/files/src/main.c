#include <math.h>
#include <stdio.h>

#include "pricing.h"

int main(void)
{
    FILE *f = fopen("/app/data/values.txt", "r");
    int v;

    if (!f) {
        perror("/app/data/values.txt");
        return 1;
    }
    while (fscanf(f, "%d", &v) == 1)
        printf("%s %d -> %d %.3f %.0f\n", LABEL, v, scale(v), sqrt((double)v), round(v / 6.0));
    fclose(f);
    return 0;
}
