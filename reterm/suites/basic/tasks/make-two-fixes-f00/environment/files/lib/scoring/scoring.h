#ifndef SCORING_H
#define SCORING_H

#define LABEL "raven"

int score(int x);

#endif
