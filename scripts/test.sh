#!/usr/bin/env bash
# The test command: set-up (idempotent), then the whole suite, slow model tests included.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest -q -p no:cacheprovider "$@"
