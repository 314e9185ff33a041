#!/bin/bash
set -e
mkdir -p /app/var/run/quartz
/app/bin/quartz-svc
