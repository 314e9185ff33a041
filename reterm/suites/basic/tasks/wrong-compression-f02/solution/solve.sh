#!/bin/bash
set -e
mkdir -p /app/restore
tar  -xf /app/downloads/cedar-4.19.5.tgz -C /app/restore cedar-4.19.5/docs/CHANGES.txt cedar-4.19.5/docs/README.txt
