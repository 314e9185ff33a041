#!/bin/bash
set -e
/app/bin/feed | head -n 22 | awk -F '\t' '{print $2}' > /app/host.txt
