#!/bin/bash
set -e
mkdir -p /app/logs/fjord
/app/bin/fjord-svc
