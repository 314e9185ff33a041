#!/bin/bash
set -e
/app/bin/monitor --count 28 > /app/samples.txt
