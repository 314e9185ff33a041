#!/bin/bash
set -e
/app/bin/events | head -n 18 | awk -F ',' '{print $3}' > /app/component.txt
