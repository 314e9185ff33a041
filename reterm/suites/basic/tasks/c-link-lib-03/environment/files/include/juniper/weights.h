#ifndef WEIGHTS_H
#define WEIGHTS_H

#define LABEL "nova"

int weigh(int x);

#endif
