#!/bin/bash
set -e
/app/bin/monitor --count 13 > /app/samples.txt
