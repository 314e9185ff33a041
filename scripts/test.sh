#!/usr/bin/env bash
# The test command: set-up (idempotent), then the whole suite, slow model tests included. The 40 slowest tests are
# listed at the end: the suite, set-up included, must stay under 30 minutes on a fresh machine.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
exec .venv/bin/python -m pytest -q -p no:cacheprovider --durations=40 "$@"
