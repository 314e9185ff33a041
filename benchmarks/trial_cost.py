"""The cost of one trial (sandbox start, agent, verification, close) on a bundled task, for the harness's own
overhead: every shell command, upload and file read the harness runs itself.

    python benchmarks/trial_cost.py [--task bash-array-00] [--agent nop] [--trials 60] [--backend local]
    perf stat -e task-clock -- python benchmarks/trial_cost.py ...   # CPU time, sandbox processes included

Prints the mean wall time a trial. Compare two versions of the code with the CPU time `perf stat` reports (robust
to other load on the machine), minus one run with `--trials 1` (the imports and the first build).
"""

from __future__ import annotations

import argparse
import time

from reterm.evaluation.trials import run_trial
from reterm.options import open_backend
from reterm.suites import suite_dir
from reterm.tasks import load_task


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--task", default="bash-array-00", help="a task of the bundled suite")
    ap.add_argument("--agent", default="nop", help="oracle, nop or shortcut:NAME")
    ap.add_argument("--trials", type=int, default=60)
    ap.add_argument("--backend", default="local", choices=["local", "docker"])
    args = ap.parse_args(argv)
    path = suite_dir("basic") / "tasks" / args.task
    if not path.is_dir():
        ap.error(f"no task {args.task} in {path.parent}")
    task, backend = load_task(path), open_backend(args.backend)
    run_trial(task, backend, args.agent)  # the environment's build, once
    start = time.perf_counter()
    for _ in range(args.trials):
        res = run_trial(task, backend, args.agent)
        if res.infra_error:
            raise SystemExit(f"trial failed: {res.infra_error}")
    print(f"{args.task} {args.agent} on {args.backend}: {(time.perf_counter() - start) / max(args.trials, 1):.4f} s "
          f"a trial (mean of {args.trials})")


if __name__ == "__main__":
    main()
