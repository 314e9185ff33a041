#!/bin/bash
set -e
cat > /app/Makefile <<'EOF'
CC = gcc
CFLAGS = -Wall -O2 -Isrc/include
LDLIBS = -lm
SRCS = src/main.c src/table.c
BIN = bin/bravocalc

all: $(BIN)

$(BIN): $(SRCS)
	mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $(SRCS) $(LDLIBS)

clean:
	rm -rf bin
EOF
cd /app
make
