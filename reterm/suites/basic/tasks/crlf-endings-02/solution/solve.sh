#!/bin/bash
set -e
sed -i 's/\r$//' /app/bin/ember
/app/bin/ember
