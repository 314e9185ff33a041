#!/bin/bash
set -e
cat > /app/Makefile <<'EOF'
CC = gcc
CFLAGS = -Wall -O2 -Iinc
OBJS = src/main.o src/util.o

cedar: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS)

src/%.o: src/%.c
	$(CC) $(CFLAGS) -c -o $@ $<

clean:
	rm -f $(OBJS) cedar
EOF
cd /app && make
