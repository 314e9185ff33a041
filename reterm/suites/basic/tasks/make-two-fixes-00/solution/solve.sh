#!/bin/bash
set -e
cat > /app/Makefile <<'EOF'
CC = gcc
CFLAGS = -Wall -O2 -Ilib/metrics
LDLIBS = -lm
SRCS = src/main.c src/metrics.c
OBJS = $(SRCS:src/%.c=build/%.o)
BIN = bin/juniper

all: $(BIN)

$(BIN): $(OBJS)
	mkdir -p bin
	$(CC) -o $@ $(OBJS) $(LDLIBS)

build/%.o: src/%.c
	mkdir -p build
	$(CC) $(CFLAGS) -c -o $@ $<

clean:
	rm -rf bin build
EOF
cd /app
make
