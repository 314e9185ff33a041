"""The evaluation of one checkpoint, as the comparison jobs run it (`reterm.compare.evaluate`: recovery attempts on a
frozen benchmark, then held-out episodes), at its settings before and after 2026-12-06, in one run: wall time, and
the rates each gives (the same model, states, tasks and sampling seed; vLLM's batches differ, so the rates agree
within sampling noise, not exactly).

    .venv/bin/python benchmarks/eval_checkpoint.py --model RUN/sft2 --bench RUN/bench --heldout heldout_instances \
        [--max-heldout 40] [-k 4] [--samples 2] [--arms before after] [--repeats 1] [--json FILE]

*before*: the sets one after another, 16 states (each with its k attempts) and then 16 held-out episodes in flight,
the engine running at most 16 sequences. *after*: recovery attempts and held-out episodes at once on the one engine,
`--concurrency` each in flight (default 16), the engine running `--engine-batch` sequences (default 64).
*at-once-e16*: at once, 16 each in flight, the engine running 16 (what `recipes/compare.py --concurrency 16` does
without `--engine-batch`). *c32*: at once, 32 each in flight, the engine running 64. Turn limits, reply budget and
format are the comparison job's (recipes/configs/smollm2-135m/reterm_grpo_cpu.yaml with `--max_recovery_turns 6`).
Arms alternate when repeated. Each arm's line adds the engine's own account (`evaluate`'s `engine`): the share of the
wall it was stepping, its mean batch, its sampled tokens a second while stepping, and the share of prompt tokens its
prefix cache held.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from reterm import suites  # noqa: E402
from reterm.compare import DEFAULT_CONFIG, eval_settings, evaluate  # noqa: E402


ARMS = ("before", "after", "at-once-e16", "c32")


def arm(name: str, a) -> argparse.Namespace:
    base = dict(benches={"bench": a.bench}, k=a.k, samples=a.samples, eval_seed=1234, policy=a.policy,
                backend="local")
    in_turn, concurrency, engine_batch = {"before": (True, 16, 16), "after": (False, a.concurrency, a.engine_batch),
                                          "at-once-e16": (False, 16, 16), "c32": (False, 32, 64)}[name]
    return argparse.Namespace(**base, concurrency=concurrency, engine_batch=engine_batch, sets_in_turn=in_turn)


def engine_line(e: dict) -> str:
    """The engine's account of one evaluation (module docstring), or nothing for an engine that keeps none."""
    if not e.get("steps"):
        return ""
    busy = e["gen_seconds"] / e["wall_s"]
    return (f"; engine stepping {busy:.0%} of the wall, mean batch {e['running'] / e['steps']:.1f} (at most "
            f"{e['max_running']}), {e['tokens'] / e['gen_seconds']:.0f} sampled tok/s while stepping, "
            f"{e['tokens']} sampled, {e['prompt_tokens']} prompt tokens ({e['cached_tokens'] / e['prompt_tokens']:.0%} "
            f"from the prefix cache)")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", type=Path, required=True)
    ap.add_argument("--bench", type=Path, required=True)
    ap.add_argument("--heldout", default="heldout_instances", choices=suites.SPLITS, help="a split of the bundled suite")
    ap.add_argument("--max-heldout", type=int, default=None)
    ap.add_argument("-k", type=int, default=4)
    ap.add_argument("--samples", type=int, default=2)
    ap.add_argument("--concurrency", type=int, default=16)
    ap.add_argument("--engine-batch", type=int, default=64)
    ap.add_argument("--policy", default="vllm")
    ap.add_argument("--arms", nargs="+", default=["before", "after"], choices=ARMS)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--json", type=Path)
    a = ap.parse_args()
    tasks = suites.load("basic", a.heldout)[:a.max_heldout]
    settings = eval_settings(DEFAULT_CONFIG, ["--max_recovery_turns", "6"])
    print(f"command: {' '.join(sys.argv)}; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at start; "
          f"{len(tasks)} held-out tasks x {a.samples}, k={a.k}", flush=True)
    runs = {name: [] for name in a.arms}
    for rep in range(a.repeats):
        for name in a.arms:
            with tempfile.TemporaryDirectory() as d:
                t = time.monotonic()
                res = evaluate(arm(name, a), a.model, Path(d) / "step.json", settings, {"heldout": tasks})
                wall = time.monotonic() - t
            rec, held = res["recovery"]["overall"], res["heldout"]
            row = {"wall_s": wall, "recovered": rec["recovered"], "attempts": rec["attempts"],
                   "passed": held["passed"], "scored": held["scored"], "engine": res.get("engine", {})}
            runs[name].append(row)
            print(f"{name} (repeat {rep}): {wall:.0f} s; recovery {row['recovered']}/{row['attempts']}, "
                  f"pass@1 {row['passed']}/{row['scored']}{engine_line(row['engine'])}", flush=True)
    med = {k: statistics.median(r["wall_s"] for r in v) for k, v in runs.items()}
    first = a.arms[0]
    for name in a.arms[1:]:
        print(f"{name} / {first}: {med[name] / med[first]:.2f}x the wall ({med[first] / med[name]:.2f}x faster)")
    print(f"load at end {os.getloadavg()[0]:.1f}")
    if a.json:
        a.json.write_text(json.dumps({"runs": runs, "median_wall_s": med}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
