#!/bin/bash
set -e
patch -d /app/alpha -p1 -i /app/patches/tune-368.patch
