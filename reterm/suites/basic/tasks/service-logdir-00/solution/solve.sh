#!/bin/bash
set -e
mkdir -p /app/log
/app/bin/fjord-svc
