#!/bin/bash
set -e
patch -d /app/tango -p1 -i /app/patches/tune-963.patch
