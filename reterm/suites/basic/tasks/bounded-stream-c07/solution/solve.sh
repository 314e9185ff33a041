#!/bin/bash
set -e
/app/bin/monitor --count 25 > /app/samples.txt
