#!/usr/bin/env bash
# The main job on the embedded defaults: set up the local (bubblewrap) backend, then run the reference solutions
# of the bundled suite through it and verify them. Extra arguments go to `reterm run`.
set -euo pipefail
cd "$(dirname "$0")/.."
RETERM_SKIP_DOCKER=1 bash scripts/setup.sh
exec .venv/bin/reterm run --suite basic --agent oracle --backend local "$@"
