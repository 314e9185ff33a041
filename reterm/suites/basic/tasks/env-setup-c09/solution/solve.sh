#!/bin/bash
set -e
mkdir -p /app/tmp/work
export DATA_DIR=/app/dataset
bash /app/run.sh
