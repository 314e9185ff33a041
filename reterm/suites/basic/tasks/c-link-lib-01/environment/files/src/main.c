#include <math.h>
#include <stdio.h>

#include "scoring.h"

int main(void)
{
    FILE *f = fopen("/app/data/values.txt", "r");
    int v;

    if (!f) {
        perror("/app/data/values.txt");
        return 1;
    }
    while (fscanf(f, "%d", &v) == 1)
        printf("%s %d -> %d %.1f %.3f\n", LABEL, v, scale(v), fmod((double)v, 5.0), sqrt((double)v));
    fclose(f);
    return 0;
}
