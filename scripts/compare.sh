#!/usr/bin/env bash
# ReTerm-GRPO against plain GRPO, from nothing to the paired tests: the set-up, the main job's stages up to SFT round 2
# (the start) in DIR/main, then the compare job (recipes/configs/smollm2-135m/compare_job.yaml) in DIR/compare.
# Tens of hours of two cores: run it in the background. The same command continues where it stopped and makes only
# what is missing (on a new machine, everything); a start made again redoes the comparison.
#   bash scripts/compare.sh [--run-dir DIR] [--plan]     # DIR: runs/ unless given (runs/main, runs/compare); --plan
#                                                        # says what is done and left, and runs nothing
# Stop it with Ctrl-C, or in the background with `kill -INT $(cat DIR/compare/job.pid)` (DIR/main/job.pid while it
# makes the start): the running stage keeps what it finished. Flags here take dashes, as the `reterm` CLI's do.
set -euo pipefail
# all of it in one function, read whole before it runs: an edit of this file during a run (hours) cannot change
# what the running copy does next
main() {
  local DIR= PLAN=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --run-dir) [ $# -ge 2 ] || { echo "compare.sh: --run-dir needs a folder" >&2; exit 2; }; DIR=$2; shift 2 ;;
      --plan) PLAN=(--plan); shift ;;
      *) echo "compare.sh: unknown argument $1 (known: --run-dir DIR, --plan)" >&2; exit 2 ;;
    esac
  done
  if [ -n "$DIR" ]; then DIR=$(realpath -m "$DIR"); fi  # relative to where the command was typed
  cd "$(dirname "$0")/.."
  DIR=${DIR:-$PWD/runs}
  case "$DIR" in *[[:space:]]*) echo "compare.sh: the run folder must not contain spaces: $DIR" >&2; exit 2 ;; esac
  if [ ${#PLAN[@]} -eq 0 ]; then
    RETERM_SKIP_DOCKER=1 bash scripts/setup.sh
  elif [ ! -x .venv/bin/python ]; then
    echo "compare.sh: no .venv yet: nothing has run (run it without --plan to set up and start)" >&2; exit 2
  fi
  .venv/bin/python recipes/main_job.py --run-dir "$DIR/main" --until sft2 "${PLAN[@]}"
  exec .venv/bin/python recipes/main_job.py --config recipes/configs/smollm2-135m/compare_job.yaml \
    --run-dir "$DIR/compare" --set start="$DIR/main/sft2" "${PLAN[@]}"
}
main "$@"
