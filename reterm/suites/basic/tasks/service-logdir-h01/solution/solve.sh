#!/bin/bash
set -e
mkdir -p /app/state/pixel
/app/bin/pixel-svc
