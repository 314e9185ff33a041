#!/bin/bash
set -e
mkdir -p /app/.cache
export INPUT_DIR=/app/dataset
bash /app/run.sh
