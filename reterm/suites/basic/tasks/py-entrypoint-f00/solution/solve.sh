#!/bin/bash
set -e
cd /app/
python3 -m forecast_app.run
