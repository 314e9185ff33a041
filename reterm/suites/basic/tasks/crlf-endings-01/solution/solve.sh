#!/bin/bash
set -e
sed -i '1s/^\xEF\xBB\xBF//' /app/data/raven.csv
/app/bin/raven
