#ifndef PRICING_H
#define PRICING_H

#define LABEL "tango"

int weigh(int x);

#endif
