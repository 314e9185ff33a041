#!/bin/bash
set -e
sed -i 's/\r$//' /app/data/lumen.txt
/app/bin/lumen
