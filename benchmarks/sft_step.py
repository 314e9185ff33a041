"""Seconds per SFT optimizer step of the CPU recipe (recipes/configs/smollm2-135m/sft_cpu.yaml: SmolLM2-135M, 8 rows a
step, precision as reterm/hardware.py picks it), for variants of where the time goes.

    .venv/bin/python benchmarks/sft_step.py --dataset runs/main/demos --steps 5 [--arms trl compact ...]

Arms: *trl*: the recipe as it was (4 rows padded together, twice a step, grouped by length) with TRL's fused LM head
as TRL runs it on a CPU (every position of the batch scored, over the whole vocabulary, in float32 torch ops);
*compact*: the same with only the positions that carry loss scored (`cpu_score_trained_only`, on by default);
*compact-fused*: and torch's fused AdamW (`optim: adamw_torch_fused`); *compact-bs8*: 8 rows in one micro-batch;
*compact-bs2*: 2 x 4, grouped by length; *compact-bs1*: the recipe as shipped, 1 x 8 in random order (a row alone
needs no padding mask, so attention runs causal); *bs1-eager*, *bs1-fused*, *bs1-compile*: the recipe as shipped with
attention as plain matrix products (`attn_implementation: eager`) instead of torch's CPU flash kernel, with torch's
fused AdamW, or under `torch.compile` (`torch_compile: true`; rows of new lengths may recompile); *packed-8*,
*packed-4x2*: the step's 8 rows packed into one sequence (or two of 4 rows) with `padding_free: true`, attention run
within each row (reterm/training/packing.py), so every other product runs over the whole pack at once. Reported per arm: the median and mean of steps 2..N (the first step
warms up), non-padding tokens trained per second, the per-step train loss (arms with the same batch size and order see
the same rows, so their losses must agree within float noise), peak RSS, and the ratio to the first arm. Arms that
batch differently see other rows in their first steps: compare them by tokens per second as well as by seconds a
step. Each arm runs in a process of its own, one after the other.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

BS4 = ["--per_device_train_batch_size", "4", "--gradient_accumulation_steps", "2", "--train_sampling_strategy",
       "group_by_length"]  # the recipe before this benchmark: 4 rows padded together, twice a step
ARMS = {
    "trl": BS4 + ["--cpu_score_trained_only", "false"],
    "compact": BS4,
    "compact-fused": BS4 + ["--optim", "adamw_torch_fused"],
    "compact-bs8": ["--per_device_train_batch_size", "8", "--gradient_accumulation_steps", "1"],
    "compact-bs2": ["--per_device_train_batch_size", "2", "--gradient_accumulation_steps", "4",
                    "--train_sampling_strategy", "group_by_length"],
    "compact-bs1": [],  # the recipe as shipped: one row at a time, 8 a step, random order
    # levers tried on the recipe as shipped (each sees the same rows in the same order as compact-bs1)
    "bs1-eager": ["--attn_implementation", "eager"],
    "bs1-fused": ["--optim", "adamw_torch_fused"],
    "bs1-compile": ["--torch_compile", "true"],
    # the step's rows packed into one sequence, attention within each row (reterm/training/packing.py): the same rows
    # in the same order as compact-bs1, so the same loss per step
    "packed-8": ["--per_device_train_batch_size", "8", "--gradient_accumulation_steps", "1", "--padding_free", "true"],
    "packed-4x2": ["--per_device_train_batch_size", "4", "--gradient_accumulation_steps", "2", "--padding_free",
                   "true"],
}


def run_arm(dataset: str, steps: int, extra: list[str]) -> dict:
    """In this process: the recipe's trainer for `steps` steps, timed by a callback."""
    from transformers import TrainerCallback

    sys.path.insert(0, str(ROOT / "recipes"))
    import sft

    class Timer(TrainerCallback):
        def __init__(self):
            self.t0, self.times, self.losses, self.tokens = None, [], [], []

        def on_step_begin(self, args, state, control, **kw):
            self.t0 = time.monotonic()

        def on_step_end(self, args, state, control, **kw):
            self.times.append(time.monotonic() - self.t0)

        def on_log(self, args, state, control, logs=None, **kw):
            if logs and "loss" in logs:
                self.losses.append(round(float(logs["loss"]), 4))
            if logs and "num_tokens" in logs:  # TRL's running count of the non-padding tokens trained on
                self.tokens.append(int(float(logs["num_tokens"])))

    with tempfile.TemporaryDirectory() as out:
        argv = ["--config", str(ROOT / "recipes/configs/smollm2-135m/sft_cpu.yaml"), "--dataset_name", dataset,
                "--output_dir", out, "--max_steps", str(steps), "--eval_strategy", "no", "--save_strategy", "no",
                "--load_best_model_at_end", "false", "--report_to", "none", "--logging_steps", "1", *extra]
        trainer, _ = sft.build_trainer(*sft.parse(argv))
        timer = Timer()
        trainer.add_callback(timer)
        trainer.train()
    later = timer.times[1:] or timer.times
    per_step = [b - a for a, b in zip([0] + timer.tokens, timer.tokens)]
    rate = sum(per_step[1:]) / sum(later) if len(per_step) > 1 and sum(later) else None
    return {"steps": len(timer.times), "median_s": round(statistics.median(later), 2),
            "tokens_per_step": per_step, "tokens_per_s": round(rate, 1) if rate else None,
            "mean_s": round(statistics.mean(later), 2), "step_s": [round(t, 2) for t in timer.times],
            "loss": timer.losses, "peak_rss_gb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20, 2),
            "bf16": bool(trainer.args.bf16)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--dataset", required=True, help="a dataset written by data_pipeline.build")
    ap.add_argument("--steps", type=int, default=6)
    ap.add_argument("--arms", nargs="+", default=["trl", "compact", "compact-fused"], choices=list(ARMS))
    ap.add_argument("--json", help="also write the results here")
    ap.add_argument("--one", help=argparse.SUPPRESS)  # internal: run one arm in this process, print its JSON
    a = ap.parse_args()
    if a.one:
        print("RESULT " + json.dumps(run_arm(a.dataset, a.steps, ARMS[a.one])))
        return 0
    cpu = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")), "?")
    results = {}
    for arm in a.arms:
        proc = subprocess.run([sys.executable, __file__, "--dataset", a.dataset, "--steps", str(a.steps), "--one", arm],
                              capture_output=True, text=True, env={**os.environ, "WANDB_MODE": "disabled"})
        line = next((x for x in proc.stdout.splitlines() if x.startswith("RESULT ")), None)
        if proc.returncode or line is None:
            print(proc.stdout[-3000:], proc.stderr[-3000:], file=sys.stderr)
            return 1
        results[arm] = json.loads(line[7:])
        print(f"{arm}: {json.dumps(results[arm])}", flush=True)
    first = results[a.arms[0]]["median_s"]
    print(f"\nCPU: {cpu}, {os.cpu_count()} cores; {a.steps} steps per arm, medians over steps 2..{a.steps}")
    print("| arm | median s/step | mean | ratio to " + a.arms[0] + " | tokens/s (steps 2..N) | loss per step | "
          "peak RSS GB |")
    print("|---|---|---|---|---|---|---|")
    for arm, r in results.items():
        print(f"| {arm} | {r['median_s']} | {r['mean_s']} | {r['median_s'] / first:.2f} | {r['tokens_per_s']} | "
              f"{' '.join(map(str, r['loss']))} | {r['peak_rss_gb']} |")
    if a.json:
        Path(a.json).write_text(json.dumps({"cpu": cpu, "steps": a.steps, "results": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
