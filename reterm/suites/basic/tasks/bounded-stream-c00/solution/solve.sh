#!/bin/bash
set -e
/app/bin/monitor --count 18 > /app/samples.txt
