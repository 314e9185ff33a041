#!/usr/bin/env bash
# The main job on the embedded defaults (local backend, SmolLM2-135M-Instruct, bundled suite), on a CPU:
#   1. recovery demonstrations: synthesize failure states -> oracle recoveries -> dataset (data/recovery-demos) (~5 min)
#   2. SFT cold start on the recovery turns            -> checkpoints/sft-smollm2-135m         (~17-25 min, 2 cores)
#   3. ReTerm-GRPO from the SFT checkpoint, 20 steps   -> checkpoints/reterm-grpo-smollm2-135m (~32 min)
# Every step resumes: re-running skips finished work (dataset shards) or continues from the last checkpoint.
# Smaller runs: VARIANTS=2 SFT_ARGS="--max_steps 5" GRPO_ARGS="--max_steps 2" bash scripts/train.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RETERM_SKIP_DOCKER=1 bash scripts/setup.sh
PY=.venv/bin/python
DATA=${DATA:-data}
mkdir -p "$DATA"
$PY -m data_pipeline.synthesize --out "$DATA/synth.jsonl" --split train --variants "${VARIANTS:-16}" -j 2
$PY -m data_pipeline.recover --states "$DATA/synth.jsonl" --out "$DATA/recover.jsonl" -k 1 -j 2
$PY -m data_pipeline.build --attempts "$DATA/recover.jsonl" --out "$DATA/recovery-demos"   # rebuilt whole, atomically
LAUNCH=(.venv/bin/accelerate launch --config_file recipes/accelerate/cpu.yaml)
SFT_DIR=${SFT_DIR:-checkpoints/sft-smollm2-135m}
if [ ! -f "$SFT_DIR/model.safetensors" ]; then
    # shellcheck disable=SC2086
    "${LAUNCH[@]}" recipes/sft.py --config recipes/configs/smollm2-135m/sft_cpu.yaml \
        --dataset_name "$DATA/recovery-demos" --output_dir "$SFT_DIR" --resume_from_checkpoint true ${SFT_ARGS:-}
fi
# shellcheck disable=SC2086
"${LAUNCH[@]}" recipes/reterm_grpo.py --config recipes/configs/smollm2-135m/reterm_grpo_cpu.yaml \
    --model_name_or_path "$SFT_DIR" --resume_from_checkpoint true ${GRPO_ARGS:-} "$@"
