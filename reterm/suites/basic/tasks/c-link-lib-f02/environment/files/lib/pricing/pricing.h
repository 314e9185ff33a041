#ifndef PRICING_H
#define PRICING_H

#define LABEL "delta"

int adjust(int x);

#endif
