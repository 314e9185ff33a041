#include "table.h"

int bucket(int x)
{
    return x * 2 + 20;
}
