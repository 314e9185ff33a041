#ifndef TABLE_H
#define TABLE_H

#define LABEL "tango"

int adjust(int x);

#endif
