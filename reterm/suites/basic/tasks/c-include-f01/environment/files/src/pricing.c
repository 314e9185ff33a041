#include "pricing.h"

int weigh(int x)
{
    return x * 7 + 42;
}
