#!/bin/bash
set -e
mkdir -p /app/restored
tar -xzf /app/backup.tar.gz -C /app/restored ./quartz/docs/CHANGES.txt
