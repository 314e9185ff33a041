#include <math.h>
#include <stdio.h>

#include "weights.h"

int main(void)
{
    FILE *f = fopen("/app/data/values.txt", "r");
    int v;

    if (!f) {
        perror("/app/data/values.txt");
        return 1;
    }
    while (fscanf(f, "%d", &v) == 1)
        printf("%s %d -> %d %.1f %.0f\n", LABEL, v, adjust(v), fmod((double)v, 7.0), round(v / 7.0));
    fclose(f);
    return 0;
}
