#!/bin/bash
set -e
cat > /app/Makefile <<'EOF'
CC = gcc
CFLAGS = -Wall -O2 -Iinclude/pixel
LDLIBS = -lm
SRCS = src/main.c src/pricing.c
BIN = bin/pixel

all: $(BIN)

$(BIN): $(SRCS)
	mkdir -p bin
	$(CC) $(CFLAGS) -o $@ $(SRCS) $(LDLIBS)

clean:
	rm -rf bin
EOF
cd /app
make
