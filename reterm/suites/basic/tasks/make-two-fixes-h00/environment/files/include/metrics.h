#ifndef METRICS_H
#define METRICS_H

#define LABEL "fjord"

int scale(int x);

#endif
