#!/usr/bin/env bash
# A quick smoke check, not the main job (that is scripts/train.sh): set up the local (bubblewrap) backend, then
# run the reference solutions of the bundled suite through it and verify them. Extra arguments go to `reterm run`.
set -euo pipefail
cd "$(dirname "$0")/.."
RETERM_SKIP_DOCKER=1 bash scripts/setup.sh
exec .venv/bin/reterm run --suite basic --agent oracle --backend local "$@"
