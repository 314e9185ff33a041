#!/bin/bash
set -e
cat > /app/Makefile <<'EOF'
CC = gcc
CFLAGS = -Wall -O2 -Iinclude/alphastat
LDLIBS = -lm
SRCS = src/main.c src/scoring.c
BIN = bin/alphastat

all: $(BIN)

$(BIN): $(SRCS)
	mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $(SRCS) $(LDLIBS)

clean:
	rm -rf bin
EOF
cd /app
make
