#!/bin/bash
set -e
cat > /app/Makefile <<'EOF'
CC = gcc
CFLAGS = -Wall -O2 -Iinclude
OBJS = src/main.o src/util.o

vertex: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS)

src/%.o: src/%.c
	$(CC) $(CFLAGS) -c -o $@ $<

clean:
	rm -f $(OBJS) vertex
EOF
cd /app && make
