#!/bin/bash
set -e
/app/bin/events | head -n 11 | awk -F ' [|] ' '{print $2}' > /app/host.txt
