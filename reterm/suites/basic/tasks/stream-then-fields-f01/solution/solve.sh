#!/bin/bash
set -e
/app/bin/tail-events | head -n 18 | awk -F ';' '{print $2}' > /app/host.txt
