"""The held-out evaluation command with and without KV states kept between turns: wall time and identical outputs.

Runs the same greedy `reterm eval` twice in subprocesses, first with `RETERM_KV_CACHE_TOKENS=0` (every turn
re-encodes its whole conversation, as before) and then with the default cache, and compares every episode's
generated token ids, turn by turn. Both runs use float32 (`RETERM_BF16=0`) unless RETERM_BF16 is set: in bf16 even
the uncached path's greedy outputs change with how concurrent requests happen to be batched (tests/test_kvcache.py).

    .venv/bin/python benchmarks/eval_cache.py [--out /tmp/evals/cache] [-- extra reterm eval options]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

COMMAND = ["eval", "--suite", "basic", "--split", "heldout", "-k", "1", "--backend", "local", "-j", "12",
           "--max-turns", "6", "--max-new-tokens", "128", "--seed", "0", "--temperature", "0"]


def completions(out: Path) -> dict:
    rows = {}
    for line in (out / "trajectories.jsonl").read_text().splitlines():
        t = json.loads(line)
        rows[(t["task_id"], t.get("sample", 0))] = [turn.get("completion_ids") for turn in t["turns"]]
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=Path("/tmp/evals/cache"))
    ap.add_argument("extra", nargs="*", help="more `reterm eval` options, after --")
    a = ap.parse_args()
    reterm = str(Path(sys.executable).with_name("reterm"))
    bf16 = os.environ.get("RETERM_BF16", "0")
    print(f"machine: {platform.machine()} {os.cpu_count()} cpus, load average {os.getloadavg()[0]:.1f}; "
          f"RETERM_BF16={bf16}")
    walls, outputs = {}, {}
    for name, tokens in (("uncached", "0"), ("cached", "")):
        out = a.out / name
        shutil.rmtree(out, ignore_errors=True)
        cmd = [reterm, *COMMAND, *a.extra, "-o", str(out)]
        print(f"{name}: RETERM_KV_CACHE_TOKENS={tokens!r} {' '.join(cmd[1:])}", flush=True)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, env={**os.environ, "RETERM_KV_CACHE_TOKENS": tokens, "RETERM_BF16": bf16},
                       stdout=subprocess.DEVNULL)
        walls[name] = time.perf_counter() - t0
        outputs[name] = completions(out)
    same = sum(outputs["cached"].get(k) == v for k, v in outputs["uncached"].items())
    print(f"wall: uncached {walls['uncached']:.1f} s, cached {walls['cached']:.1f} s "
          f"({walls['uncached'] / walls['cached']:.2f}x faster)")
    print(f"episodes with identical token ids in every turn: {same} / {len(outputs['uncached'])}")
    return 0 if same == len(outputs["uncached"]) else 1


if __name__ == "__main__":
    sys.exit(main())
