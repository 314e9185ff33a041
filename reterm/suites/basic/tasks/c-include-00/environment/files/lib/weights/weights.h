#ifndef WEIGHTS_H
#define WEIGHTS_H

#define LABEL "tango"

int adjust(int x);

#endif
