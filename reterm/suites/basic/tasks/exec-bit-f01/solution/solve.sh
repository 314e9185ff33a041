#!/bin/bash
set -e
chmod +x /app/bin/make_report.sh
/app/bin/make_report.sh
