#!/bin/bash
set -e
tmp=$(mktemp -d)
cp -r /app/old/pixel "$tmp/a" && cp -r /app/new/pixel "$tmp/b"
cd "$tmp" && { diff -ruN a b > /app/pixel-1.7.1.patch || [ $? -eq 1 ]; }
rm -rf "$tmp"
