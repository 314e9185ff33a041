#!/bin/bash
set -e
cd /app/
python3 -m billingkit.run
