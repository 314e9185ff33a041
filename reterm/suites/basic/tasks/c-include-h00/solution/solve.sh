#!/bin/bash
set -e
cat > /app/Makefile <<'EOF'
CC = gcc
CFLAGS = -Wall -O2 -Ilib/weights
LDLIBS = -lm
SRCS = src/main.c src/weights.c
BIN = bin/umbercalc

all: $(BIN)

$(BIN): $(SRCS)
	mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $(SRCS) $(LDLIBS)

clean:
	rm -rf bin
EOF
cd /app
make
