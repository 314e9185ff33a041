#include "table.h"

int scale(int x)
{
    return x * 9 + 33;
}
