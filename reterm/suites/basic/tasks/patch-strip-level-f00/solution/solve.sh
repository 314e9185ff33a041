#!/bin/bash
set -e
patch -d /app/maple/src -p1 -i /app/patches/tune-423.patch
