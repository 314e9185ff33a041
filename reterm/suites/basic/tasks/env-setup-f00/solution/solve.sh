#!/bin/bash
set -e
mkdir -p /app/cache
export DATA_DIR=/app/dataset
bash /app/run.sh
