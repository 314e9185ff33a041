#include "units.h"

int convert(int x) { return x * FACTOR + OFFSET; }
