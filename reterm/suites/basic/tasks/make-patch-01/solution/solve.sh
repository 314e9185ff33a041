#!/bin/bash
set -e
tmp=$(mktemp -d)
cp -r /app/old/quartz "$tmp/a" && cp -r /app/new/quartz "$tmp/b"
cd "$tmp" && { diff -ruN a b > /app/quartz-2.7.1.patch || [ $? -eq 1 ]; }
rm -rf "$tmp"
