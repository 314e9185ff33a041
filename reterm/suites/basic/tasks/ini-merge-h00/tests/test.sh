#!/bin/bash
# Verifier entry point: 1 when /tests/check.py accepts the final state, else 0.
mkdir -p /logs/verifier
if python3 /tests/check.py; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
