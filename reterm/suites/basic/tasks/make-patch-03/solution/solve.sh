#!/bin/bash
set -e
tmp=$(mktemp -d)
cp -r /app/quartz-2.8 "$tmp/a" && cp -r /app/quartz-2.8.1 "$tmp/b"
cd "$tmp" && { diff -ruN a b > /app/quartz-2.8.1.patch || [ $? -eq 1 ]; }
rm -rf "$tmp"
