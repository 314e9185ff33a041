#!/bin/bash
set -e
/app/bin/watch | head -n 24 | awk -F ' [|] ' '{print $5}' > /app/latency.txt
