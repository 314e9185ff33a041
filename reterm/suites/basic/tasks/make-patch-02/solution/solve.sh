#!/bin/bash
set -e
tmp=$(mktemp -d)
cp -r /app/quartz-3.1 "$tmp/a" && cp -r /app/quartz-3.1.9 "$tmp/b"
cd "$tmp" && { diff -ruN a b > /app/quartz-3.1.9.patch || [ $? -eq 1 ]; }
rm -rf "$tmp"
