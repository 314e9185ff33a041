#ifndef METRICS_H
#define METRICS_H

#define LABEL "fjord"

int weigh(int x);

#endif
