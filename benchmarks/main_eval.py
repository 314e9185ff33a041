"""The main job's evaluation of one model, as it ran until 2026-12-06 (four commands, one engine each, one set after
another) and as it runs now (`reterm eval-sets`: the four sets at once on one engine), in one run: wall time and what
each set scored (the same model, tasks, states and sampling seed; vLLM's batches differ, so rates agree within
sampling noise, not exactly).

    .venv/bin/python benchmarks/main_eval.py --run RUN --model RUN/sft2 [--arms stages at-once] [--repeats 1]
        [--json FILE]

RUN is a main job's run folder after its `benchf` stage: its task samples (RUN/tasks/heldout,
RUN/tasks/heldout_families) and recovery benchmarks (RUN/bench/states, RUN/benchf/states). Settings are the main
job's (recipes/configs/smollm2-135m/main_job.yaml): -j 16, 8 turns of at most 128 tokens a task, 3 a recovery attempt,
2 attempts a state in distribution and 1 on held-out-family states, sampling seed 0, the vLLM engine. *stages*: the
four commands in turn, each its own process (an engine of 16 sequences). *at-once*: one `reterm eval-sets` (an
engine of 64). Arms alternate when repeated.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RETERM = [sys.executable, "-m", "reterm.cli"]
COMMON = ["--policy", "vllm", "--backend", "local", "-j", "16", "--max-new-tokens", "128", "--seed", "0"]


def sets(run: Path) -> dict:
    return {"heldout_instances": run / "tasks" / "heldout", "heldout_families": run / "tasks" / "heldout_families",
            "recovery": (run / "bench" / "states", 2), "recovery_heldout_families": (run / "benchf" / "states", 1)}


def stages(model: str, run: Path, out: Path) -> list[list[str]]:
    cmds = []
    for name, where in sets(run).items():
        if isinstance(where, tuple):
            bench, k = where
            cmds.append([*RETERM, "recovery-bench", "eval", str(bench), "--model", model, *COMMON, "-k", str(k),
                         "--max-turns", "3", "-o", str(out / name)])
        else:
            cmds.append([*RETERM, "eval", "--suite", str(where), "--model", model, *COMMON, "--max-turns", "8",
                         "-o", str(out / name)])
    return cmds


def at_once(model: str, run: Path, out: Path) -> list[list[str]]:
    args = []
    for name, where in sets(run).items():
        args += (["--recovery", f"{name}={where[0]}:{where[1]}"] if isinstance(where, tuple)
                 else ["--tasks", f"{name}={where}"])
    return [[*RETERM, "eval-sets", "--model", model, *COMMON, "--engine-batch", "64", "--max-turns", "8",
             "--recovery-turns", "3", "-o", str(out), *args]]


def scores(out: Path) -> dict:
    got = {}
    for name in ("heldout_instances", "heldout_families"):
        o = json.loads((out / name / "eval.json").read_text())["overall"]
        got[name] = f"{round(o['pass@1'] * o['tasks'])}/{o['tasks']}"
    for name in ("recovery", "recovery_heldout_families"):
        o = json.loads((out / name / "recovery.json").read_text())["overall"]
        got[name] = f"{o['recovered']}/{o['attempts']}"
    return got


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--run", type=Path, required=True, help="a main job's run folder (after its benchf stage)")
    ap.add_argument("--model", required=True, help="the model to evaluate, e.g. RUN/sft2")
    ap.add_argument("--arms", nargs="+", choices=["stages", "at-once"], default=["stages", "at-once"])
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--json", type=Path, help="write every run's figures here")
    a = ap.parse_args()
    for name, where in sets(a.run).items():
        path = where[0] / "manifest.json" if isinstance(where, tuple) else where
        if not path.exists():
            ap.error(f"--run {a.run}: {path} is missing (set {name}); run the main job up to its benchf stage")
    runs = []
    for rep in range(a.repeats):
        for arm in (a.arms if rep % 2 == 0 else list(reversed(a.arms))):
            tmp = Path(tempfile.mkdtemp(prefix=f"main-eval-{arm}-"))
            try:
                started = time.monotonic()
                for cmd in (stages if arm == "stages" else at_once)(a.model, a.run, tmp):
                    p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
                    if p.returncode != 0:
                        print(f"{arm}: {' '.join(cmd)} failed:\n{p.stderr[-3000:]}", file=sys.stderr)
                        return 1
                wall = time.monotonic() - started
                row = {"arm": arm, "repeat": rep, "wall_s": round(wall, 1), "scores": scores(tmp)}
                print(json.dumps(row), flush=True)
                runs.append(row)
            finally:
                shutil.rmtree(tmp, ignore_errors=True)
    walls = {arm: statistics.median(r["wall_s"] for r in runs if r["arm"] == arm) for arm in a.arms}
    if len(walls) == 2:
        print(f"median wall: stages {walls['stages']:.0f} s, at once {walls['at-once']:.0f} s: "
              f"{walls['stages'] / walls['at-once']:.2f}x")
    if a.json:
        a.json.write_text(json.dumps({"runs": runs, "median_wall_s": walls}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
