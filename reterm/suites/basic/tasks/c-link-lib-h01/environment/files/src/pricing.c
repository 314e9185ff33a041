#include "pricing.h"

int scale(int x)
{
    return x * 2 + 21;
}
