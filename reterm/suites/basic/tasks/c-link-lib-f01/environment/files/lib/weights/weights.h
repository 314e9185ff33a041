#ifndef WEIGHTS_H
#define WEIGHTS_H

#define LABEL "fjord"

int score(int x);

#endif
