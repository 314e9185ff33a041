#!/bin/bash
set -e
sed -i 's/\r$//' /app/bin/harbor
/app/bin/harbor
