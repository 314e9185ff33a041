#!/usr/bin/env bash
# The main job on the embedded defaults (local backend, SmolLM2-135M-Instruct, bundled suite), on a CPU:
#   demonstrations -> SFT round 1 -> the SFT policy's own failures on the train tasks, recovered -> SFT round 2
#   -> ReTerm-GRPO -> every model evaluated on held-out instances and on a frozen recovery benchmark
#   -> runs/<date>/report.md + report.png (the table is printed last).
# The stages, their inputs and outputs are in recipes/configs/smollm2-135m/main_job.yaml; recipes/main_job.py runs
# them. Re-running continues where it stopped (Ctrl-C is safe; in the background `kill -INT $(cat RUN_DIR/job.pid)`,
# runs/main/job.pid by default); a stage whose inputs changed is redone.
#   QUICK=1 bash scripts/train.sh           # every stage at toy size (a first look, ~10 min; not a result)
#   bash scripts/train.sh --plan            # what is done, what would run and why (sets up nothing)
#   bash scripts/train.sh --run-dir DIR     # keep the run elsewhere (default runs/main; or RETERM_RUN_DIR)
set -euo pipefail
cd "$(dirname "$0")/.."
PLAN=0
FLAGS=(--config --quick --run-dir --set --report-dir --plan --until --pin --repin --help)
for a in "$@"; do  # the job runner's flags (recipes/main_job.py), checked before the set-up installs anything
  case "$a" in
    --pl|--pla|--plan) PLAN=1 ;;  # as argparse, a prefix that names one flag
    -h) ;;
    --?*)
      known=0
      for f in "${FLAGS[@]}"; do [[ "$f" == "${a%%=*}"* ]] && known=1; done  # as argparse, a flag's prefix too
      if [ "$known" = 0 ]; then
        echo "train.sh: unknown argument $a (known: those of recipes/main_job.py: ${FLAGS[*]})" >&2; exit 2
      fi ;;
  esac
done
if [ "$PLAN" = 0 ]; then
  RETERM_SKIP_DOCKER=1 bash scripts/setup.sh
elif [ ! -x .venv/bin/python ]; then  # a plan installs nothing
  echo "train.sh: no .venv yet: nothing has run (run it without --plan to set up and start)" >&2; exit 2
fi
ARGS=()
if [ "${QUICK:-0}" != 0 ]; then ARGS+=(--quick); fi
exec .venv/bin/python recipes/main_job.py "${ARGS[@]}" "$@"
