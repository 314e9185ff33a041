#!/bin/bash
set -e
/app/bin/monitor --count 14 > /app/samples.txt
