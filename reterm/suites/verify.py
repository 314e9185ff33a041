"""Checks that a suite's verifiers reward only the outcome: on every task the reference solution scores 1, doing
nothing scores 0, and so does every generic shortcut (`reterm.evaluation.baselines.SHORTCUTS`: emptying or deleting
the work dir, creating the named paths with placeholders, making everything executable, running every script).

    python -m reterm.suites.verify DIR [--backend docker] [--families a,b] [--per-family N] [--shortcuts-per-task K]

DIR is a suite dir (holding tasks/) or a dir of task dirs. Exit 1 with one line per problem, naming family and task.
`--shortcuts-per-task K` tries K of the shortcuts on each task, taken in turn across the tasks (in id order), so that
every shortcut still meets a share of the tasks: a cheaper sample (the tests check every shortcut on every task on the
local backend, and one instance of every family with one shortcut each on Docker).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor, as_completed
from pathlib import Path

from reterm.evaluation.baselines import SHORTCUTS

AGENTS = ("oracle", "nop", *(f"shortcut:{s}" for s in SHORTCUTS))


def agents_for(index: int, shortcuts_per_task: int = 0) -> tuple[str, ...]:
    """The agents tried on the `index`-th task: oracle, nop and every shortcut, or `shortcuts_per_task` of them taken
    in turn (task 0 the first K, task 1 the next K, ...)."""
    if not shortcuts_per_task or shortcuts_per_task >= len(SHORTCUTS):
        return AGENTS
    names, start = list(SHORTCUTS), index * shortcuts_per_task
    return ("oracle", "nop", *(f"shortcut:{names[(start + j) % len(names)]}" for j in range(shortcuts_per_task)))


def select(tasks, families=None, per_family: int = 0):
    """The tasks of `families` (all when None), at most `per_family` of each (0: all), in id order."""
    kept, count = [], defaultdict(int)
    for t in sorted(tasks, key=lambda t: t.id):
        fam = t.family or t.id
        if families and fam not in families:
            continue
        if per_family and count[fam] >= per_family:
            continue
        count[fam] += 1
        kept.append(t)
    return kept


def _problem(task, agent: str, res) -> str | None:
    want = 1.0 if agent == "oracle" else 0.0
    if res.infra_error:
        return f"family {task.family} task {task.id}: {agent} hit an infra error: {res.infra_error}"
    if res.reward != want:
        what = "the reference solution fails" if agent == "oracle" else f"{agent} passes"
        return f"family {task.family} task {task.id}: {what} (reward {res.reward}, want {want})"
    return None


def check_tasks(tasks, backend, concurrency: int = 4, progress: bool = True, shortcuts_per_task: int = 0) -> list[str]:
    """Every (task, agent) trial of `agents_for` each task; the problems found, sorted."""
    from reterm.evaluation.trials import run_trial
    from reterm.progress import progress_bar

    jobs = [(t, a) for i, t in enumerate(tasks) for a in agents_for(i, shortcuts_per_task)]
    problems: list[str] = []
    with ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool, progress_bar(
            "problems {task.fields[problems]}", log_every=60.0) as bar:
        pid = bar.add_task(f"oracle/nop/shortcuts on {backend.name}", total=len(jobs), problems=0,
                           visible=progress)
        futures = {pool.submit(run_trial, t, backend, a): (t, a) for t, a in jobs}
        for fut in as_completed(futures):
            t, a = futures[fut]
            p = _problem(t, a, fut.result())
            if p:
                problems.append(p)
            bar.update(pid, advance=1, problems=len(problems))
    return sorted(problems)


def check_suite(suite: Path, families=None, backend: str = "local", per_family: int = 0,
                concurrency: int = 4, shortcuts_per_task: int = 0) -> list[str]:
    from reterm.options import open_backend
    from reterm.tasks import load_tasks

    root = suite / "tasks" if (suite / "tasks").is_dir() else suite
    loaded = load_tasks(sorted(p for p in root.iterdir() if p.is_dir()))  # TaskError names a broken one
    unknown = sorted(set(families or ()) - {t.family or t.id for t in loaded})
    if unknown:
        raise ValueError(f"--families: no task of {', '.join(unknown)} under {root}")
    tasks = select(loaded, families, per_family)
    if not tasks:
        return [f"no tasks selected under {root}"]
    be = open_backend(backend)
    if backend == "docker":
        from reterm.sandbox.images import BASE_TAG, build_base

        build_base(BASE_TAG, log=lambda *_: None)
    try:
        return check_tasks(tasks, be, concurrency, shortcuts_per_task=shortcuts_per_task)
    finally:
        close = getattr(be, "close", None)
        if close:
            close()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("suite", type=Path)
    ap.add_argument("--backend", default="local", choices=["local", "docker"])
    ap.add_argument("--families", default="")
    ap.add_argument("--per-family", type=int, default=0)
    ap.add_argument("--concurrency", type=int, default=4)
    ap.add_argument("--shortcuts-per-task", type=int, default=0,
                    help="try this many shortcuts on each task, in turn across the tasks (0: all of them)")
    args = ap.parse_args(argv)
    if args.shortcuts_per_task < 0:
        ap.error(f"--shortcuts-per-task must be 0 or more, not {args.shortcuts_per_task}")
    if not args.suite.is_dir():
        print(f"error: {args.suite} is not a directory", file=sys.stderr)
        return 2
    if args.per_family < 0 or args.concurrency < 1:
        ap.error("--per-family must be 0 or more and --concurrency at least 1")
    try:
        problems = check_suite(args.suite, [f for f in args.families.split(",") if f] or None, args.backend,
                               args.per_family, args.concurrency, args.shortcuts_per_task)
    except ValueError as e:  # TaskError: a task that does not load
        print(f"error: {e}", file=sys.stderr)
        return 2
    for p in problems:
        print(f"FAIL {p}")
    print(f"{len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
