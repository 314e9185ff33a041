#!/bin/bash
set -e
tmp=$(mktemp -d)
cp -r /app/juniper-2.2 "$tmp/a" && cp -r /app/juniper-2.2.2 "$tmp/b"
cd "$tmp" && { diff -ruN a b > /app/juniper-2.2.2.patch || [ $? -eq 1 ]; }
rm -rf "$tmp"
