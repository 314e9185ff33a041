#include "metrics.h"

int scale(int x)
{
    return x * 5 + 14;
}
