#!/usr/bin/env bash
# The test command: set-up (idempotent), then the whole suite, slow model tests included; the slowest tests are listed
# at the end. The suite, set-up included, must stay under 30 minutes on a fresh 2-core machine.
#
# With no arguments the tests marked `background` (long, self-contained: every bundled task's verifier check, the
# QUICK main job, the toy comparisons) run in a second pytest beside the rest, at lower priority (nice 10), so they use the CPU the others
# leave idle; their report follows the main one. With arguments (a file, -k, -m ...) or RETERM_TEST_SERIAL=1, one
# pytest runs what was asked.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
PYTEST=(.venv/bin/python -m pytest -q -p no:cacheprovider)
if [ $# -gt 0 ] || [ "${RETERM_TEST_SERIAL:-0}" != 0 ]; then
  exec "${PYTEST[@]}" --durations=40 "$@"
fi
log="$(mktemp -t reterm-background-tests.XXXXXX)"
# only the files that hold background tests: collecting every module again would cost this pytest 15-30 s of CPU
mapfile -t bg_files < <(grep -l "pytest.mark.background" tests/test_*.py)
nice -n 10 "${PYTEST[@]}" --durations=5 -m background "${bg_files[@]}" >"$log" 2>&1 &
bg=$!
trap 'kill -INT "$bg" 2>/dev/null || true' INT TERM
set +e
"${PYTEST[@]}" --durations=40 -m "not background"
main_rc=$?
wait "$bg"
bg_rc=$?
set -e
echo
echo "===== the background tests (run beside the others, nice 10; their log: $log) ====="
cat "$log"
if [ "$main_rc" -ne 0 ] || [ "$bg_rc" -ne 0 ]; then
  echo "FAILED: the main tests exited $main_rc, the background tests $bg_rc" >&2
  exit 1
fi
