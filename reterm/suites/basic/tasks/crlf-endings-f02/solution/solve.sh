#!/bin/bash
set -e
sed -i 's/\r$//' /app/data/juniper.txt
/app/bin/juniper
