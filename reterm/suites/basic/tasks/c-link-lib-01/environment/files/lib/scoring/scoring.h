#ifndef SCORING_H
#define SCORING_H

#define LABEL "raven"

int scale(int x);

#endif
