#include <math.h>
#include <stdio.h>

#include "table.h"

int main(void)
{
    FILE *f = fopen("/app/data/values.txt", "r");
    int v;

    if (!f) {
        perror("/app/data/values.txt");
        return 1;
    }
    while (fscanf(f, "%d", &v) == 1)
        printf("%s %d -> %d %.1f\n", LABEL, v, bucket(v), fmod((double)v, 8.0));
    fclose(f);
    return 0;
}
