#ifndef PRICING_H
#define PRICING_H

#define LABEL "orbit"

int bucket(int x);

#endif
