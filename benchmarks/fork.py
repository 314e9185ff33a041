"""Snapshot + fork vs replay, and per-command exec overhead, on bundled tasks.

For each task and backend: start a sandbox, run a fixed command prefix (the state an agent would be in at a failure
point), then time
  fork:   snapshot() + fork(8)                        -> 8 sandboxes in that state
  replay: start 8 fresh sandboxes and run the prefix in each (8 threads, as parallel as the fork path)
and the overhead of one `exec("true")`. Environments are built before timing (both paths reuse the cache).
Medians over --reps repetitions; the ratio is replay / fork within the same run. On docker the task's warm pool is
filled before timing, and refilled (waited for) after each fork, so no background container start overlaps what
is timed.

`--pool`: two engines of equal capacity (this machine's and a scratch `dockerd` started for the run): 32 sandboxes
started at once and where they went; then, with every sandbox running a command, the scratch engine is SIGKILLed:
how long until each of its sandboxes has failed (an infra failure), how long until a new sandbox runs a command on
the other engine, and what is left on either engine once everything is closed and the killed engine is back.

    python benchmarks/fork.py [--backends local docker] [--reps 5] [--tasks 3] [--pool]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from reterm import suites
from reterm.options import BASE_IMAGE
from reterm.sandbox import SandboxError, docker_available, make_backend

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
    warm_forks = 0
    for task in tasks:
        backend.prepare(task)
        if backend_name == "docker":
            backend.prewarm(task)
        for _ in range(reps):
            sb = _prepared(backend, task, prefix)
            t = time.perf_counter()
            with sb.snapshot() as snap:
                forks = snap.fork(N_FORKS)
            fork_t.append(time.perf_counter() - t)
            assert all(f.exec("echo $STAGE").output == "prefix\n" for f in forks)
            if backend_name == "docker":
                warm_forks += sum(f.container.attrs["Config"]["Image"] == f.base_image for f in forks)
                backend.warm.wait()
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
    if backend_name == "docker":
        backend.close()
    return {
        "fork": statistics.median(fork_t),
        "replay": statistics.median(replay_t),
        "ratio": statistics.median(replay_t) / statistics.median(fork_t),
        "exec": statistics.median(exec_t),
        "n": len(fork_t),
        "warm": warm_forks,
    }


def _sandboxes_failing(boxes, command: str) -> list:
    """Runs `command` in every sandbox at once (one thread each); returns the threads and, per sandbox, when its
    command ended and whether it raised."""
    ended: dict = {}

    def run(sb):
        try:
            sb.exec(command, timeout=60)
            ended[sb.id] = (time.monotonic(), None)
        except SandboxError as e:
            ended[sb.id] = (time.monotonic(), e)

    threads = [threading.Thread(target=run, args=(b,)) for b in boxes]
    for t in threads:
        t.start()
    return threads, ended


def bench_pool(n: int = 32) -> dict:
    """Two engines of equal capacity: placement of `n` concurrent sandboxes, then one engine killed mid-command."""
    from reterm.sandbox.docker_backend import DockerBackend
    from reterm.sandbox.docker_engines import EngineSpec, default_hosts
    from reterm.sandbox.resources import owner_id
    from reterm.sandbox.scratch_engine import ScratchEngine, census

    task = suites.load("basic", "train")[0]
    out: dict = {}
    capacity = n // 2 + 4  # equal, with room left for the work that follows the kill
    with ScratchEngine(images=(BASE_IMAGE,), capacity=capacity) as scratch:
        backend = DockerBackend(image_map={"ubuntu": BASE_IMAGE},
                                hosts=[EngineSpec(default_hosts()[0].url, capacity), scratch.spec])
        main_engine, scratch_engine = backend.engines
        for e in backend.engines:
            backend.image_for(task, e)
        with ThreadPoolExecutor(n) as pool:
            boxes = list(pool.map(lambda _: backend.start(task), range(n)))
        out["placed"] = {e.url: sum(b.engine is e for b in boxes) for e in backend.engines}
        threads, ended = _sandboxes_failing(boxes, "sleep 20")
        time.sleep(2)
        t_kill = time.monotonic()
        scratch.kill()
        fresh, out["failed_starts"] = [], 0
        while len(fresh) < 4:  # the run goes on: new sandboxes until 4 run a command (as the next trials would)
            try:
                sb = backend.start(task)
                fresh.append(sb)
                assert sb.exec("echo ok").output == "ok\n"
            except SandboxError:
                out["failed_starts"] += 1
        out["continue_s"] = time.monotonic() - t_kill
        out["fresh_on"] = sorted({sb.engine.url for sb in fresh})
        while any(b.id not in ended for b in boxes if b.engine is scratch_engine):
            time.sleep(0.05)
        failed = [ended[b.id] for b in boxes if b.engine is scratch_engine]
        out["detect_s"] = max(t for t, _ in failed) - t_kill
        out["failed"] = sum(e is not None for _, e in failed)
        for t in threads:
            t.join()
        out["main_ok"] = sum(ended[b.id][1] is None for b in boxes if b.engine is main_engine)
        _close_all(boxes + fresh)
        scratch.start()
        deadline = time.monotonic() + 30
        while (not scratch_engine.up or scratch_engine.debt) and time.monotonic() < deadline:
            time.sleep(0.2)
        backend.close()
        out["left"] = {e.url: census(e, owner_id(), backend.id) for e in backend.engines}
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--backends", nargs="+", default=["local", "docker"], choices=("local", "docker"))
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--tasks", type=int, default=3)
    ap.add_argument("--prefixes", nargs="+", default=["light", "heavy"], choices=list(PREFIXES))
    ap.add_argument("--pool", action="store_true", help="also the two-engine placement and kill benchmark")
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
            if name == "docker":
                print(f"|  | (forks from warm containers: {r['warm']} of {r['n'] * N_FORKS}) | | | | | |")
    if args.pool:
        r = bench_pool()
        print(f"\npool of two engines of capacity 20 each, 32 sandboxes started at once: placed {r['placed']}")
        print(f"killed engine: {r['failed']} of its sandboxes failed with EngineDown, the last {r['detect_s']:.2f} s "
              f"after the kill; 4 new sandboxes ran a command on {r['fresh_on']} {r['continue_s']:.2f} s after the "
              f"kill ({r['failed_starts']} starts failed first); {r['main_ok']} commands on the other engine "
              f"finished normally")
        print(f"left after closing (containers and snapshot images of this run): {r['left']}")
    print(f"load average at the end: {os.getloadavg()}")


if __name__ == "__main__":
    main()
