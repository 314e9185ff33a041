#!/bin/bash
set -e
/app/bin/monitor --count 17 > /app/samples.txt
