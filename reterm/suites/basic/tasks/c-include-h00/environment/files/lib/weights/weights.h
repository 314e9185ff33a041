#ifndef WEIGHTS_H
#define WEIGHTS_H

#define LABEL "quartz"

int adjust(int x);

#endif
