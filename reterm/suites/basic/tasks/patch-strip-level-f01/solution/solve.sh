#!/bin/bash
set -e
patch -d /app/quartz -p1 -i /app/patches/update-674.patch
