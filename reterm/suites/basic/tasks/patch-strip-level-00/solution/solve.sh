#!/bin/bash
set -e
patch -d /app/nova -p1 -i /app/patches/fix-863.patch
