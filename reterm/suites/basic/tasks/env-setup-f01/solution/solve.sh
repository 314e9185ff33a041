#!/bin/bash
set -e
mkdir -p /app/tmp/work
export INPUT_DIR=/app/dataset
bash /app/run.sh
