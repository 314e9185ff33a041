#include "pricing.h"

int bucket(int x)
{
    return x * 8 + 11;
}
