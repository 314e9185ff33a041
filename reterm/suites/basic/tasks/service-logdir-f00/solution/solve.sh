#!/bin/bash
set -e
mkdir -p /app/run
/app/bin/orbit-svc
