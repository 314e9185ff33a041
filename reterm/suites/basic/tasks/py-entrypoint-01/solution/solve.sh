#!/bin/bash
set -e
cd /app/
python3 -m scoringkit.tools.cli
