#include "table.h"

int adjust(int x)
{
    return x * 6 + 44;
}
