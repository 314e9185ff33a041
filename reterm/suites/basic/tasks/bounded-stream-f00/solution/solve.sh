#!/bin/bash
set -e
/app/bin/monitor --count 29 > /app/samples.txt
