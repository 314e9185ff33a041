#!/bin/bash
set -e
/app/bin/monitor --count 16 > /app/samples.txt
