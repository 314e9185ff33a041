#!/bin/bash
set -e
cat > /app/Makefile <<'EOF'
CC = gcc
CFLAGS = -Wall -O2 -Iinc
OBJS = src/main.o src/util.o

nova: $(OBJS)
	$(CC) $(CFLAGS) -o $@ $(OBJS)

src/%.o: src/%.c
	$(CC) $(CFLAGS) -c -o $@ $<

clean:
	rm -f $(OBJS) nova
EOF
cd /app && make
