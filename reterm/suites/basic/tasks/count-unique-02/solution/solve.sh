#!/bin/bash
set -e
cat /app/data/*.txt | grep -v '^[[:space:]]*#' | tr 'A-Z' 'a-z' \
    | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep -v '^$' \
    | sort | uniq -c | sort -k1,1nr | awk '{print $1, $2}' > /app/counts.txt
