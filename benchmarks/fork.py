"""Snapshot + fork vs replay, and per-command exec overhead, on bundled tasks.

For each task and backend: start a sandbox, run a fixed command prefix (the state an agent would be in at a failure
point), then time
  fork:   snapshot() + fork(8)                        -> 8 sandboxes in that state
  replay: start 8 fresh sandboxes and run the prefix in each (8 threads, as parallel as the fork path)
and the overhead of one `exec("true")`. Environments are built before timing (both paths reuse the cache).
Medians over --reps repetitions; the ratio is replay / fork within the same run.

    python benchmarks/fork.py [--backends local docker] [--reps 5] [--tasks 3]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from reterm import suites
from reterm.options import BASE_IMAGE
from reterm.sandbox import docker_available, make_backend

# `light`: six quick commands (~0.1 s). `heavy`: what agents typically do before they go wrong — set up an
# environment and run a test suite — here a venv and ~1.5 s of Python work (~2-3 s in all).
PREFIXES = {
    "light": [
        "cd /app",
        "export STAGE=prefix RUN_ID=42",
        "mkdir -p work && for i in $(seq 1 200); do echo line $i >> work/log.txt; done",
        "python3 -c 'print(sum(range(10**6)))' > work/sum.txt",
        "ls -la /app > work/ls.txt; cp -r /app/work /app/work2",
        "grep -c line work/log.txt",
    ],
}
PREFIXES["heavy"] = PREFIXES["light"] + [
    "python3 -m venv --without-pip /app/venv",
    "python3 -c 'import hashlib; h=b\"x\"\nfor _ in range(10**6): h=hashlib.sha256(h).digest()\nprint(h.hex())'",
    "python3 -m compileall -q /app > /dev/null; find /usr/lib/python3* -name '*.py' | wc -l",
]
PREFIX = PREFIXES["light"]
N_FORKS = 8


def _prepared(backend, task, prefix):
    sb = backend.start(task)
    for cmd in prefix:
        assert sb.exec(cmd, timeout=60).exit_code == 0, cmd
    return sb


def _close_all(boxes):
    with ThreadPoolExecutor(8) as pool:
        list(pool.map(lambda b: b.close(), boxes))


def bench(backend_name: str, tasks, reps: int, prefix: list[str]) -> dict:
    backend = make_backend(backend_name, image_map={"ubuntu": BASE_IMAGE})
    fork_t, replay_t, exec_t = [], [], []
    for task in tasks:
        backend.prepare(task)
        for _ in range(reps):
            sb = _prepared(backend, task, prefix)
            t = time.perf_counter()
            with sb.snapshot() as snap:
                forks = snap.fork(N_FORKS)
            fork_t.append(time.perf_counter() - t)
            assert all(f.exec("echo $STAGE").output == "prefix\n" for f in forks)
            _close_all(forks)

            t = time.perf_counter()
            with ThreadPoolExecutor(N_FORKS) as pool:
                replays = list(pool.map(lambda _: _prepared(backend, task, prefix), range(N_FORKS)))
            replay_t.append(time.perf_counter() - t)
            _close_all(replays)

            for _ in range(20):
                t = time.perf_counter()
                sb.exec("true")
                exec_t.append(time.perf_counter() - t)
            sb.close()
    return {
        "fork": statistics.median(fork_t),
        "replay": statistics.median(replay_t),
        "ratio": statistics.median(replay_t) / statistics.median(fork_t),
        "exec": statistics.median(exec_t),
        "n": len(fork_t),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backends", nargs="+", default=["local", "docker"])
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--tasks", type=int, default=3)
    ap.add_argument("--prefixes", nargs="+", default=["light", "heavy"], choices=list(PREFIXES))
    args = ap.parse_args()
    all_tasks = suites.load("basic", "train")
    families, tasks = set(), []
    for t in all_tasks:  # one task per family, first N families
        if t.family not in families and len(tasks) < args.tasks:
            families.add(t.family)
            tasks.append(t)
    print(f"command: python benchmarks/{os.path.basename(__file__)} {' '.join(sys.argv[1:])}")
    print(f"machine: {platform.node()} {platform.machine()} {os.cpu_count()} cpus, {platform.platform()}")
    print(f"tasks: {', '.join(t.id for t in tasks)}; {N_FORKS} forks\n")
    print("| backend | prefix | snapshot + 8 forks (median s) | replay prefix in 8 fresh sandboxes (median s) "
          "| replay / fork | exec overhead (median ms) | samples |")
    print("|---|---|---|---|---|---|---|")
    for name in args.backends:
        if name == "docker" and not docker_available():
            print("| docker | | no Docker engine answers | | | | |")
            continue
        for pname in args.prefixes:
            r = bench(name, tasks, args.reps, PREFIXES[pname])
            print(f"| {name} | {pname} ({len(PREFIXES[pname])} commands) | {r['fork']:.3f} | {r['replay']:.3f} "
                  f"| {r['ratio']:.1f}x | {r['exec'] * 1000:.1f} | {r['n']} |", flush=True)


if __name__ == "__main__":
    main()
