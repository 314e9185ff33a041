#!/bin/bash
set -e
/app/bin/monitor --count 12 > /app/samples.txt
