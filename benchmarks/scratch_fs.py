"""Local sandboxes' trees on the state root's disk against the scratch tmpfs: the same verifier check (oracle, nop
and every shortcut on each task of a sample of families, `reterm.suites.verify`), run in turn with RETERM_SCRATCH
set to the state root and unset (a folder of /dev/shm), alternating.

    python benchmarks/scratch_fs.py [--every 10] [--rounds 2] [--concurrency 6]

Each run is its own process with its own state root (the environments built in a first, unmeasured run). Reports,
per arm, the median wall time and the machine's busy CPU (/proc/stat: every process and kernel thread, which is
where a filesystem's own work shows), and the ratio of the medians. Run it on an otherwise quiet machine.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CHECK = """
import sys
from reterm.suites import suite_dir
from reterm.suites.verify import check_suite
problems = check_suite(suite_dir("basic"), families=sys.argv[1].split(","), backend="local",
                       concurrency=int(sys.argv[2]))
sys.exit(1 if problems else 0)
"""


def busy_seconds() -> float:
    with open("/proc/stat") as f:
        fields = [int(x) for x in f.readline().split()[1:]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields[:8]
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


def families(every: int) -> list[str]:
    from reterm.suites import suite_dir
    from reterm.tasks import load_tasks

    root = suite_dir("basic") / "tasks"
    fams = sorted({t.family or t.id for t in load_tasks(sorted(p for p in root.iterdir() if p.is_dir()))})
    return fams[::every]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--every", type=int, default=10, help="every N-th family (in name order) of the bundled suite")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--concurrency", type=int, default=6, help="trials at once (the local check's test uses 6)")
    args = ap.parse_args(argv)
    fams = families(args.every)
    home = Path(tempfile.mkdtemp(prefix="reterm-scratch-bench-"))
    arms = {"disk": {"RETERM_SCRATCH": str(home)}, "tmpfs": {}}
    base = {k: v for k, v in os.environ.items() if k != "RETERM_SCRATCH"}
    base["RETERM_HOME"] = str(home)

    def run(extra: dict) -> tuple[float, float]:
        t, b = time.monotonic(), busy_seconds()
        p = subprocess.run([sys.executable, "-c", CHECK, ",".join(fams), str(args.concurrency)],
                           env={**base, **extra}, capture_output=True, text=True)
        if p.returncode != 0:
            raise SystemExit(f"the check failed:\n{p.stdout[-2000:]}{p.stderr[-2000:]}")
        time.sleep(2)  # deferred kernel work of the last trials
        return time.monotonic() - t - 2, busy_seconds() - b

    print(f"{len(fams)} families: {', '.join(fams)}", flush=True)
    run({})  # builds every environment once
    seen: dict[str, list[tuple[float, float]]] = {a: [] for a in arms}
    for r in range(args.rounds):
        for name in (list(arms) if r % 2 == 0 else list(arms)[::-1]):
            seen[name].append(run(arms[name]))
            print(f"round {r + 1} {name}: {seen[name][-1][0]:.1f} s wall, {seen[name][-1][1]:.1f} s busy CPU",
                  flush=True)
    med = {a: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for a, v in seen.items()}
    for a, (w, c) in med.items():
        print(f"{a}: median {w:.1f} s wall, {c:.1f} s busy CPU")
    ratio = [med["tmpfs"][i] / med["disk"][i] for i in (0, 1)]
    print(f"tmpfs / disk: wall {ratio[0]:.2f}x, busy CPU {ratio[1]:.2f}x")
    from reterm.sandbox.resources import shm_folder

    subprocess.run(["rm", "-rf", str(home), str(shm_folder(home))])


if __name__ == "__main__":
    main()
