#!/bin/bash
set -e
cd /app
sed -i 's/^ \+/\t/' Makefile
make
