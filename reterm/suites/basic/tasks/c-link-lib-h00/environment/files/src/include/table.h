#ifndef TABLE_H
#define TABLE_H

#define LABEL "umber"

int scale(int x);

#endif
