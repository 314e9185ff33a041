#!/bin/bash
set -e
mkdir -p /app/srv/juniper
tar --lzma -xf /app/downloads/juniper-1.7.6.tar.gz -C /app/srv/juniper juniper-1.7.6/docs/CHANGES.txt juniper-1.7.6/docs/README.txt
