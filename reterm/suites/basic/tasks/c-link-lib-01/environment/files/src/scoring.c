#include "scoring.h"

int scale(int x)
{
    return x * 5 + 24;
}
