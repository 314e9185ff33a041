#include "weights.h"

int weigh(int x)
{
    return x * 4 + 11;
}
