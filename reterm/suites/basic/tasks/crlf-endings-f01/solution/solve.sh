#!/bin/bash
set -e
sed -i '1s/^\xEF\xBB\xBF//' /app/data/vertex.csv
/app/bin/vertex
