#!/usr/bin/env bash
# The main job on the embedded defaults (local backend, SmolLM2-135M-Instruct, bundled suite), on a CPU:
#   1. recovery demonstrations: synthesize failure states -> oracle recoveries -> dataset (data/recovery-demos)
#   2. SFT cold start on the recovery turns            -> checkpoints/sft-smollm2-135m         (~20-35 min, 2 cores)
#   3. ReTerm-GRPO from the SFT checkpoint, 20 steps   -> checkpoints/reterm-grpo-smollm2-135m (~25 min)
# Every step resumes: re-running skips finished work (dataset shards) or continues from the last checkpoint.
set -euo pipefail
cd "$(dirname "$0")/.."
RETERM_SKIP_DOCKER=1 bash scripts/setup.sh
PY=.venv/bin/python
mkdir -p data
$PY -m data_pipeline.synthesize --out data/synth.jsonl --split train --variants 16 -j 2
$PY -m data_pipeline.recover --states data/synth.jsonl --out data/recover.jsonl -k 1 -j 2
$PY -m data_pipeline.build --attempts data/recover.jsonl --out data/recovery-demos   # rebuilt whole, atomically
LAUNCH=(.venv/bin/accelerate launch --config_file recipes/accelerate/cpu.yaml)
if [ ! -f checkpoints/sft-smollm2-135m/model.safetensors ]; then
    "${LAUNCH[@]}" recipes/sft.py --config recipes/configs/smollm2-135m/sft_cpu.yaml --resume_from_checkpoint true
fi
"${LAUNCH[@]}" recipes/reterm_grpo.py --config recipes/configs/smollm2-135m/reterm_grpo_cpu.yaml \
    --resume_from_checkpoint true "$@"
