#!/bin/bash
set -e
cat > /app/Makefile <<'EOF'
CC = gcc
CFLAGS = -Wall -O2 -Isrc/include
LDLIBS = -lm
SRCS = src/main.c src/table.c
OBJS = $(SRCS:src/%.c=build/%.o)
BIN = bin/tangostat

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
