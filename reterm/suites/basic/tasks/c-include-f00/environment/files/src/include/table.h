#ifndef TABLE_H
#define TABLE_H

#define LABEL "vertex"

int bucket(int x);

#endif
