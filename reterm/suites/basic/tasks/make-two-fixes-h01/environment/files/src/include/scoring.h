#ifndef SCORING_H
#define SCORING_H

#define LABEL "nova"

int score(int x);

#endif
