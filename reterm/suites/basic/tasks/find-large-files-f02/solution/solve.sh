#!/bin/bash
set -e
find /app/storage -type f -name '*.log' -size +30000c -delete
