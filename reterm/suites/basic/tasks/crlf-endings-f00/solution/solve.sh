#!/bin/bash
set -e
sed -i '1s/^\xEF\xBB\xBF//' /app/data/tango.csv
/app/bin/tango
