#!/bin/bash
set -e
/app/bin/monitor --count 30 > /app/samples.txt
