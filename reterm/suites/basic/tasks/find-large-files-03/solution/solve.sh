#!/bin/bash
set -e
find /app/cache -type f -name '*.bin' -size +40000c -delete
