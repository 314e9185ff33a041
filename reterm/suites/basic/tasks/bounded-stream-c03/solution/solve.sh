#!/bin/bash
set -e
/app/bin/monitor --count 24 > /app/samples.txt
