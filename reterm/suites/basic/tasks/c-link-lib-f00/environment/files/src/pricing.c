#include "pricing.h"

int scale(int x)
{
    return x * 9 + 32;
}
