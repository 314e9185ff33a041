#ifndef WEIGHTS_H
#define WEIGHTS_H

#define LABEL "lumen"

int score(int x);

#endif
