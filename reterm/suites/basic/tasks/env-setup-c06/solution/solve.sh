#!/bin/bash
set -e
mkdir -p /app/cache
export DATASET_ROOT=/app/dataset
bash /app/run.sh
