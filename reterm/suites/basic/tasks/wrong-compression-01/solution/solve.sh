#!/bin/bash
set -e
mkdir -p /app/opt
tar -J -xf /app/downloads/fjord-4.2.6.tgz -C /app/opt fjord-4.2.6/docs/CHANGES.txt fjord-4.2.6/docs/README.txt
