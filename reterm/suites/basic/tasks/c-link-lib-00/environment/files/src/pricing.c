#include "pricing.h"

int bucket(int x)
{
    return x * 4 + 30;
}
