#!/bin/bash
set -e
tmp=$(mktemp -d)
cp -r /app/ember-3.1 "$tmp/a" && cp -r /app/ember-3.1.1 "$tmp/b"
cd "$tmp" && { diff -ruN a b > /app/ember-3.1.1.patch || [ $? -eq 1 ]; }
rm -rf "$tmp"
