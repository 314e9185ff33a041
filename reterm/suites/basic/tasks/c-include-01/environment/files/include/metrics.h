#ifndef METRICS_H
#define METRICS_H

#define LABEL "fjord"

int score(int x);

#endif
