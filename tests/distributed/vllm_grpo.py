"""Run by tests/test_vllm.py in a process of its own (TRL's colocated vLLM initialises torch.distributed for the whole
process, which a later Trainer in the same process would take for a multi-process run): ReTerm-GRPO steps on the
colocated vLLM engine of `model_dir`, every weight moved after each step (the tiny model's own updates are zero: its
replies never pass). `--skip-sync-after N`: the weight sync is a no-op from the end of step N on, and the run is
given N+1 steps. Writes `<out>/result.json`: the logged metrics, the steps done and the error that stopped the run,
if any."""

from __future__ import annotations

import json
import shutil
import sys
import tempfile
from pathlib import Path

import torch
from transformers import AutoModelForCausalLM, TrainerCallback

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from reterm.models import load_tokenizer  # noqa: E402
from reterm.training.grpo import ReTermGRPOTrainer  # noqa: E402
from test_grpo import config, make_task  # noqa: E402


class MoveWeights(TrainerCallback):
    def __init__(self, model):
        self.model = model

    def on_step_end(self, args, state, control, **kw):
        g = torch.Generator().manual_seed(state.global_step)
        with torch.no_grad():
            for p in self.model.parameters():
                p.add_(torch.randn(p.shape, generator=g, dtype=p.dtype) * 0.05)


class SkipSyncAfter(TrainerCallback):
    """From the end of step `n` on, the weight sync does nothing (as a broken one would)."""

    def __init__(self, n: int):
        self.n = n

    def on_step_end(self, args, state, control, **kw):
        if state.global_step == self.n:
            from reterm.training.vllm_sync import CpuColocateGeneration

            CpuColocateGeneration.sync_weights = lambda self: None


def main(model_dir: str, out: str, skip_sync_after: int) -> None:
    tmp = Path(tempfile.mkdtemp(dir=out))
    model = AutoModelForCausalLM.from_pretrained(model_dir, dtype=torch.float32)
    args = config(tmp, use_vllm=True, vllm_mode="colocate", max_steps=skip_sync_after + 1,
                  vllm_importance_sampling_correction=True, bf16=False, vllm_sync_tolerance=0.02)
    tr = ReTermGRPOTrainer(model, args, [make_task(tmp, "a"), make_task(tmp, "b")],
                           processing_class=load_tokenizer(model_dir))
    tr.add_callback(MoveWeights(model))
    tr.add_callback(SkipSyncAfter(skip_sync_after))
    error = None
    try:
        tr.train()
    except RuntimeError as e:
        error = str(e)
    logged: dict[str, list] = {}
    for row in tr.state.log_history:
        for k, v in row.items():
            logged.setdefault(k, []).append(v)
    (Path(out) / "result.json").write_text(json.dumps({"error": error, "steps": tr.state.global_step,
                                                       "logged": logged}))


if __name__ == "__main__":
    import conftest  # imported with test_grpo; it made this process a state dir of its own, which no pytest removes

    try:
        if sys.argv[3:4] != ["--skip-sync-after"] or len(sys.argv) != 5:
            sys.exit("usage: vllm_grpo.py MODEL_DIR OUT --skip-sync-after N")
        main(sys.argv[1], sys.argv[2], int(sys.argv[4]))
    finally:
        shutil.rmtree(conftest._HOME, ignore_errors=True)
