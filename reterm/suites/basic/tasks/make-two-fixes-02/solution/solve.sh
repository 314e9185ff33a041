#!/bin/bash
set -e
cat > /app/Makefile <<'EOF'
CC = gcc
CFLAGS = -Wall -O2 -Iinclude
LDLIBS = -lm
SRCS = src/main.c src/units.c
BIN = bin/orbit

all: $(BIN)

$(BIN): $(SRCS)
	mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $(SRCS) $(LDLIBS)

clean:
	rm -rf bin
EOF
cd /app
make
