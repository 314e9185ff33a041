#ifndef METRICS_H
#define METRICS_H

#define LABEL "sierra"

int adjust(int x);

#endif
