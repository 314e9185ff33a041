#ifndef WEIGHTS_H
#define WEIGHTS_H

#define LABEL "cedar"

int bucket(int x);

#endif
