#!/bin/bash
set -e
mkdir -p /app/restore
tar  -xf /app/downloads/maple-4.16.3.tgz -C /app/restore maple-4.16.3/docs/CHANGES.txt maple-4.16.3/docs/README.txt
