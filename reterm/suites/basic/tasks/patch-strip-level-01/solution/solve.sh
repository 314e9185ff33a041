#!/bin/bash
set -e
patch -d /app/sierra/src -p1 -i /app/patches/fix-739.patch
