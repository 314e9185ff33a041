#!/bin/bash
set -e
mkdir -p /app/restored
tar -xzf /app/backup.tar.gz -C /app/restored ./juniper/config/settings.ini
