#ifndef PRICING_H
#define PRICING_H

#define LABEL "vertex"

int bucket(int x);

#endif
