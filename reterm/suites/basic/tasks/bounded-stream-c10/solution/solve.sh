#!/bin/bash
set -e
/app/bin/monitor --count 15 > /app/samples.txt
