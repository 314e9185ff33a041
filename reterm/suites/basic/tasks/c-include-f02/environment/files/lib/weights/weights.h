#ifndef WEIGHTS_H
#define WEIGHTS_H

#define LABEL "maple"

int score(int x);

#endif
