#!/bin/bash
set -e
find /app/uploads -type f -name '*.dump' -size +50000c -delete
