#ifndef PRICING_H
#define PRICING_H

#define LABEL "vertex"

int scale(int x);

#endif
