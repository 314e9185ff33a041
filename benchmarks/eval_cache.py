"""The held-out evaluation command with and without KV states kept between turns: wall time and identical outputs.

Runs the same greedy `reterm eval` twice in subprocesses, first with `RETERM_KV_CACHE_TOKENS=0` (every turn
re-encodes its whole conversation, as before) and then with the default cache, and compares every episode's
generated token ids, turn by turn (when the tasks' agent timeout cuts episodes, as on a slow machine, the turns both
runs reached). Both runs use float32 (`RETERM_BF16=0`) unless RETERM_BF16 is set: in bf16 even
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


def completions(out: Path, stops: dict | None = None) -> dict:
    """Each episode's generated ids, turn by turn; `stops` gets each episode's stop reason."""
    rows = {}
    for line in (out / "trajectories.jsonl").read_text().splitlines():
        t = json.loads(line)
        key = (t["task_id"], t.get("sample", 0))
        rows[key] = [turn.get("completion_ids") for turn in t["turns"]]
        if stops is not None:
            stops[key] = t.get("stop_reason")
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
    walls, outputs, stops = {}, {}, {}
    for name, tokens in (("uncached", "0"), ("cached", "")):
        out = a.out / name
        shutil.rmtree(out, ignore_errors=True)
        cmd = [reterm, *COMMAND, *a.extra, "-o", str(out)]
        print(f"{name}: RETERM_KV_CACHE_TOKENS={tokens!r} {' '.join(cmd[1:])}", flush=True)
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, env={**os.environ, "RETERM_KV_CACHE_TOKENS": tokens, "RETERM_BF16": bf16},
                       stdout=subprocess.DEVNULL)
        walls[name] = time.perf_counter() - t0
        stops[name] = {}
        outputs[name] = completions(out, stops[name])
    u, c = outputs["uncached"], outputs["cached"]
    same = sum(c.get(k) == v for k, v in u.items())
    print(f"wall: uncached {walls['uncached']:.1f} s, cached {walls['cached']:.1f} s "
          f"({walls['uncached'] / walls['cached']:.2f}x faster)")
    print(f"episodes with identical token ids in every turn: {same} / {len(u)}")
    # an episode cut by the task's agent timeout in one arm only (the slower one, on a slow machine) has fewer turns:
    # the wall ratio is then not comparable, and only the turns both arms ran can be compared
    timed_out = {n: sum(r == "agent_timeout" for r in stops[n].values()) for n in stops}
    common = [(k, t) for k in u if k in c for t in range(min(len(u[k]), len(c[k])))]
    same_turns = sum(u[k][t] == c[k][t] for k, t in common)
    print(f"turns: uncached {sum(map(len, u.values()))}, cached {sum(map(len, c.values()))}; identical in "
          f"{same_turns} / {len(common)} turns both ran; episodes cut by the agent timeout: uncached "
          f"{timed_out['uncached']}, cached {timed_out['cached']}")
    if any(timed_out.values()):
        print("the agent timeout cut episodes: the wall ratio compares unequal work (see the turns above)")
        return 0 if same_turns == len(common) else 1
    return 0 if same == len(u) else 1


if __name__ == "__main__":
    sys.exit(main())
