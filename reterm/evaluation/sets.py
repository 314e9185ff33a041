"""One model on several evaluation sets at once, on one engine (`reterm eval-sets`).

A set is either tasks (pass@1 over one or more episodes a task, what `reterm eval` measures) or a frozen recovery
benchmark (K attempts from every state, what `reterm recovery-bench eval` measures). Every set runs in its own thread
against the same policy, so the engine is loaded once and always has work: one set's last episodes, or episodes
waiting on their sandboxes, do not leave it idle, and attempts from one state share their prompt's prefix in its
cache. Each set's files are the ones its own command writes, in OUT/<name>/ (eval.json, results.jsonl,
trajectories.jsonl, trials/; recovery.json, recovery.png); OUT/eval-sets.json says what ran, each set's overall
figures, the wall and, for vLLM, the engine's own account (steps, sequences, cached and sampled tokens).
"""

from __future__ import annotations

import json
import re
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

NAME = re.compile(r"[A-Za-z0-9][\w.-]*$")


@dataclass
class TaskSet:
    name: str
    tasks: list = field(default_factory=list)


@dataclass
class RecoverySet:
    name: str
    bench: Path
    k: int
    states: list = field(default_factory=list)


def _split(item: str, option: str) -> tuple[str, str]:
    name, eq, where = item.partition("=")
    if not eq or not where:
        raise ValueError(f"{option} {item!r}: expected NAME=WHERE")
    if not NAME.match(name):
        raise ValueError(f"{option} {item!r}: the name {name!r} must be letters, digits, '_', '-' or '.' (it names "
                         f"the set's folder)")
    return name, where


def parse_task_sets(items, select) -> list[TaskSet]:
    """`NAME=FOLDER` (task dirs, or a suite folder) or `NAME=SUITE:SPLIT` (a bundled suite's split) -> task sets;
    `select(suite, split)` loads the tasks (reterm.options.select_tasks) and raises naming what is wrong."""
    sets = []
    for item in items:
        name, where = _split(item, "--tasks")
        suite, split = where, "all"
        if not Path(where).is_dir() and ":" in where:
            suite, split = where.rsplit(":", 1)
        try:
            tasks = select(suite, split)
        except ValueError as e:
            raise ValueError(f"--tasks {item!r}: {e}") from None
        sets.append(TaskSet(name, tasks))
    return sets


MAX_K = 64


def load_bench(where: Path, label: str) -> list:
    """A frozen recovery benchmark's states, checked: `where` holds a manifest and at least one state. Errors start
    with `label` (the option or folder the user gave)."""
    from reterm.evaluation import recovery_bench as rb

    if not (Path(where) / "manifest.json").is_file():
        raise ValueError(f"{label}: {where} is not a recovery benchmark (no manifest.json; `reterm recovery-bench "
                         f"build --out` makes one)")
    try:
        states = rb.load_states(Path(where))
    except (OSError, ValueError) as e:
        raise ValueError(f"{label}: {e}") from None
    if not states:
        raise ValueError(f"{label}: {where} holds no failure states")
    for st in states:
        if st.exported is None:
            raise ValueError(f"{label}: state {st.id} in {where} has no exported snapshot to start from (a benchmark's "
                             f"states are frozen with one by `reterm recovery-bench build`)")
    return states


def parse_recovery_sets(items, k: int) -> list[RecoverySet]:
    """`NAME=BENCH_DIR` (K = `k` attempts a state) or `NAME=BENCH_DIR:K` -> recovery sets, each benchmark's states
    loaded and checked (none is empty)."""
    sets = []
    for item in items:
        name, where = _split(item, "--recovery")
        n = k
        head, colon, tail = where.rpartition(":")
        if colon and tail.isdigit() and not Path(where).is_dir():
            where, n = head, int(tail)
        if not 1 <= n <= MAX_K:
            raise ValueError(f"--recovery {item!r}: K must be 1 to {MAX_K} attempts a state")
        sets.append(RecoverySet(name, Path(where), n, load_bench(Path(where), f"--recovery {item!r}")))
    return sets


def restore_backend(states: list, backend: str, label: str) -> str:
    """The backend a benchmark's states restore on: theirs with `auto`; `backend` if it is theirs; else an error
    naming the one to give (a state exported from one backend cannot be restored on another)."""
    made = states[0].exported.backend
    if backend not in ("auto", made):
        raise ValueError(f"{label}: its states were exported from the {made} backend and restore only there; give "
                         f"--backend {made}")
    return made


def backend_for(recovery_sets: list[RecoverySet], backend: str) -> str:
    """The backend to open for these benchmarks: `backend`, or with `auto` the one their states were exported from;
    refused when a benchmark's states cannot be restored there, or when they come from different backends."""
    made = {restore_backend(s.states, backend, f"--recovery {s.name}") for s in recovery_sets}
    if len(made) > 1:
        raise ValueError(f"the recovery benchmarks' states come from different backends ({', '.join(sorted(made))}); "
                         f"evaluate them in separate runs")
    return next(iter(made)) if made else backend


def check_names(task_sets: list[TaskSet], recovery_sets: list[RecoverySet], out: Path) -> None:
    names = [s.name for s in task_sets] + [s.name for s in recovery_sets]
    if not names:
        raise ValueError("nothing to evaluate: give --tasks NAME=WHERE and/or --recovery NAME=BENCH")
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise ValueError(f"set name(s) {twice} given twice: each set writes into OUT/<name>/")
    done = [str(out / s.name / f) for s, f in [(s, "results.jsonl") for s in task_sets] +
            [(s, "recovery.json") for s in recovery_sets] if (out / s.name / f).exists()]
    if (out / "eval-sets.json").exists():
        done.append(str(out / "eval-sets.json"))
    if done:
        raise ValueError(f"{', '.join(done)} already exist(s); choose another --output so no results are overwritten")


def run(policy, backend, task_sets: list[TaskSet], recovery_sets: list[RecoverySet], task_config, recovery_config,
        concurrency: int, out: Path, samples: int = 1, on_row=None) -> dict:
    """Every set at once, each with `concurrency` tasks or states in flight; `on_row(set name, row)` after each
    episode or attempt. Returns {name: ("tasks", rows) | ("recovery", report) | ("error", the exception)}: a set that
    fails does not stop the others, and what they finished is kept. Writes each set's trial files as it goes
    (run_tasks), nothing else."""
    from reterm.evaluation import recovery_bench as rb
    from reterm.evaluation.trials import ModelAgent, run_tasks

    results: dict[str, tuple[str, object]] = {}
    lock = threading.Lock()

    def one_task_set(s: TaskSet):
        where = out / s.name
        run_tasks(s.tasks, backend, ModelAgent(policy, task_config), where, concurrency,
                  (lambda row: on_row(s.name, row)) if on_row else None, samples=samples)
        rows = [json.loads(line) for line in (where / "results.jsonl").read_text().splitlines()]
        with lock:
            results[s.name] = ("tasks", rows)

    def one_recovery_set(s: RecoverySet):
        report = rb.evaluate(policy, s.bench, backend, s.k, recovery_config, concurrency,
                             (lambda row: on_row(s.name, row)) if on_row else None, states=s.states)
        with lock:
            results[s.name] = ("recovery", report)

    def guarded(fn, s):
        try:
            fn(s)
        except Exception as e:  # noqa: BLE001 - kept as the set's result; the other sets go on
            with lock:
                results[s.name] = ("error", e)

    jobs = [(one_task_set, s) for s in task_sets] + [(one_recovery_set, s) for s in recovery_sets]
    with ThreadPoolExecutor(len(jobs), thread_name_prefix="reterm-eval-sets") as pool:
        for f in [pool.submit(guarded, fn, s) for fn, s in jobs]:
            f.result()  # a stop (SystemExit) still leaves through here
    return results


def summary(results: dict, model: str, wall_s: float, engine_batch: int, concurrency: int, stats: dict) -> dict:
    """OUT/eval-sets.json: each set's overall figures, the wall and the engine's account."""
    sets = {}
    for name, (kind, data) in results.items():
        if kind == "error":
            sets[name] = {"kind": "error", "error": f"{type(data).__name__}: {data}"}
        elif kind == "tasks":
            sets[name] = {"kind": "tasks", "episodes": len(data), "passed": sum(bool(r["passed"]) for r in data),
                          "infra_errors": sum(bool(r.get("infra_error")) for r in data)}
        else:
            sets[name] = {"kind": "recovery", **{k: data["overall"][k] for k in ("states", "attempts", "recovered")
                                                 if k in data["overall"]}}
    return {"model": model, "wall_s": round(wall_s, 1), "engine_batch": engine_batch, "concurrency": concurrency,
            "engine": {k: round(v, 1) if isinstance(v, float) else v for k, v in stats.items()}, "sets": sets,
            "finished": time.strftime("%Y-%m-%d %H:%M:%S")}
