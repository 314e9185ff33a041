#ifndef WEIGHTS_H
#define WEIGHTS_H

#define LABEL "umber"

int adjust(int x);

#endif
