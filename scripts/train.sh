#!/usr/bin/env bash
# The main job on the embedded defaults (local backend, SmolLM2-135M-Instruct, bundled suite), on a CPU:
#   1. demonstrations: synthesize failure states -> oracle episodes -> dataset (data/recovery-demos)
#   2. SFT cold start on every correct and recovery turn, best checkpoint by validation loss
#                                                       -> checkpoints/sft-smollm2-135m
#   3. ReTerm-GRPO from the SFT checkpoint, 20 steps   -> checkpoints/reterm-grpo-smollm2-135m
# Every step resumes: re-running skips finished work (dataset shards) or continues from the last checkpoint.
# Smaller runs: VARIANTS=1 SFT_ARGS="--max_steps 2 --eval_strategy no --load_best_model_at_end false" \
#               GRPO_ARGS="--max_steps 1" bash scripts/train.sh
set -euo pipefail
cd "$(dirname "$0")/.."
RETERM_SKIP_DOCKER=1 bash scripts/setup.sh
PY=.venv/bin/python
DATA=${DATA:-data}
mkdir -p "$DATA"
$PY -m data_pipeline.synthesize --out "$DATA/synth.jsonl" --split train --variants "${VARIANTS:-4}" -j 4
$PY -m data_pipeline.recover --states "$DATA/synth.jsonl" --out "$DATA/recover.jsonl" -k "${ATTEMPTS:-2}" -j 4
$PY -m data_pipeline.build --attempts "$DATA/recover.jsonl" --out "$DATA/recovery-demos"   # rebuilt whole, atomically
LAUNCH=(.venv/bin/accelerate launch --config_file recipes/accelerate/cpu.yaml)
SFT_DIR=${SFT_DIR:-checkpoints/sft-smollm2-135m}
GRPO_DIR=${GRPO_DIR:-checkpoints/reterm-grpo-smollm2-135m}
if [ ! -f "$SFT_DIR/model.safetensors" ]; then
    # shellcheck disable=SC2086
    "${LAUNCH[@]}" recipes/sft.py --config recipes/configs/smollm2-135m/sft_cpu.yaml \
        --dataset_name "$DATA/recovery-demos" --output_dir "$SFT_DIR" --resume_from_checkpoint true ${SFT_ARGS:-}
fi
# shellcheck disable=SC2086
"${LAUNCH[@]}" recipes/reterm_grpo.py --config recipes/configs/smollm2-135m/reterm_grpo_cpu.yaml \
    --model_name_or_path "$SFT_DIR" --output_dir "$GRPO_DIR" --resume_from_checkpoint true ${GRPO_ARGS:-} "$@"
echo "results: dataset $DATA/recovery-demos (card: $DATA/recovery-demos/README.md), SFT model $SFT_DIR," \
     "ReTerm-GRPO model $GRPO_DIR (training logs under each checkpoint dir)"
