#ifndef UNITS_H
#define UNITS_H

#define LABEL "maple"

int score(int x);

#endif
