#!/bin/bash
set -e
mkdir -p /app/tmp/work
export DATASET_ROOT=/app/dataset
bash /app/run.sh
