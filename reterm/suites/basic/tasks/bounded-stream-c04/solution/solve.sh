#!/bin/bash
set -e
/app/bin/monitor --count 22 > /app/samples.txt
