#!/bin/bash
set -e
mkdir -p /app/log /app/state/ember
/app/bin/ember-svc
