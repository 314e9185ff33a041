#ifndef PRICING_H
#define PRICING_H

#define LABEL "fjord"

int score(int x);

#endif
