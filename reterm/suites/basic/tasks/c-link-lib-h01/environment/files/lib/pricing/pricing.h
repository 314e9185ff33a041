#ifndef PRICING_H
#define PRICING_H

#define LABEL "maple"

int scale(int x);

#endif
