#!/bin/bash
set -e
cd /app/src/
python3 -m scoringkit.main
