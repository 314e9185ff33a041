#!/bin/bash
set -e
tmp=$(mktemp -d)
cp -r /app/nova.orig "$tmp/a" && cp -r /app/nova "$tmp/b"
cd "$tmp" && { diff -ruN a b > /app/nova-2.2.6.patch || [ $? -eq 1 ]; }
rm -rf "$tmp"
