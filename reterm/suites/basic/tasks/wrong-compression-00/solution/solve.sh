#!/bin/bash
set -e
mkdir -p /app/restore
tar --lzma -xf /app/downloads/harbor-4.12.0.tgz -C /app/restore harbor-4.12.0/docs/CHANGES.txt harbor-4.12.0/share/schema.sql
