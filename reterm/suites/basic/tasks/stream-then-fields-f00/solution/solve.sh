#!/bin/bash
set -e
/app/bin/watch | head -n 16 | awk -F ',' '{print $5}' > /app/latency.txt
