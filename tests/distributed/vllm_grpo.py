"""Run by tests/test_vllm.py in a process of its own (TRL's colocated vLLM initialises torch.distributed for the whole
process, which a later Trainer in the same process would take for a multi-process run): the GRPO recipe itself
(`recipes/reterm_grpo.py`, run as a script is run, its command line as a user types it: `--use_vllm true --vllm_mode
colocate`) on two toy tasks, every weight moved after each step (the tiny model's own updates are zero: its replies
never pass). `--skip-sync-after N`: the weight sync is a no-op from the end of step N on, and the run is given N+1
steps. Writes `<out>/result.json`: the logged metrics, the steps done and the error that stopped the run, if any."""

from __future__ import annotations

import json
import runpy
import shutil
import sys
import tempfile
from pathlib import Path

import torch
from transformers import TrainerCallback

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from reterm.training.grpo import ReTermGRPOTrainer  # noqa: E402
from test_grpo import make_task  # noqa: E402


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
    make_task(tmp / "tasks", "a"), make_task(tmp / "tasks", "b")
    trainers = []
    init = ReTermGRPOTrainer.__init__

    def init_and_watch(self, *a, **kw):  # the recipe's trainer, with the two callbacks above
        init(self, *a, **kw)
        self.add_callback(MoveWeights(self.model))
        self.add_callback(SkipSyncAfter(skip_sync_after))
        trainers.append(self)

    ReTermGRPOTrainer.__init__ = init_and_watch
    sys.argv = [str(ROOT / "recipes" / "reterm_grpo.py"), "--model_name_or_path", model_dir,
                "--output_dir", str(tmp / "out"), "--suite", str(tmp / "tasks"), "--report_to", "none",
                "--use_cpu", "true", "--bf16", "false", "--dtype", "float32", "--seed", "0",
                "--max_steps", str(skip_sync_after + 1), "--save_strategy", "no", "--logging_steps", "1",
                "--num_generations", "4", "--per_device_train_batch_size", "8", "--learning_rate", "5e-2",
                "--max_completion_length", "256", "--max_scout_turns", "1", "--max_recovery_turns", "1",
                "--max_new_tokens_per_turn", "16", "--beta", "0.0", "--refill_tries", "0", "--temperature", "1.0",
                "--sandbox_concurrency", "16", "--use_vllm", "true", "--vllm_mode", "colocate",
                "--vllm_importance_sampling_correction", "true", "--vllm_sync_tolerance", "0.02"]
    error = None
    try:
        runpy.run_path(sys.argv[0], run_name="__main__")
    except RuntimeError as e:
        error = str(e)
    except SystemExit as e:  # the recipe ended on its own: a refusal (2), or every step done (0)
        if e.code:
            raise
    tr = trainers[0]
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
