#!/bin/bash
set -e
patch -d /app/alpha/src -p1 -i /app/patches/hotfix-215.patch
