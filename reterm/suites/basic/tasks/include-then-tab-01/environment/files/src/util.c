#include "config.h"

int convert(int x) { return x * FACTOR + OFFSET; }
