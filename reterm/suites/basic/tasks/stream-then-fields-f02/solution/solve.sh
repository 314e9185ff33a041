#!/bin/bash
set -e
/app/bin/tail-events | head -n 21 | awk -F ';' '{print $3}' > /app/component.txt
