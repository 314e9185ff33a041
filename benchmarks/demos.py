"""Verified recovery demonstrations per minute with the oracle teacher (synthesize + recover + build).

    .venv/bin/python benchmarks/demos.py --variants 4 --concurrency 1 2 4

For each concurrency: synthesize failure states on the bundled train split (`--variants` seeds per perturbation kind
and task), recover each with the oracle (K=1 fork), build the dataset. Reported: wall time per stage, failure states,
verified attempts, distinct demonstrations after deduplication, and verified attempts per minute.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from data_pipeline import build as build_mod  # noqa: E402
from data_pipeline.recover import run as recover_run  # noqa: E402
from data_pipeline.synthesize import run as synth_run  # noqa: E402
from reterm import suites  # noqa: E402
from reterm.options import BACKENDS, open_backend  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", type=int, default=4)
    ap.add_argument("--concurrency", type=int, nargs="+", default=[1, 2, 4])
    ap.add_argument("--backend", default="local", choices=BACKENDS)
    a = ap.parse_args()
    tasks = suites.load("basic", "train")
    backend = open_backend(a.backend)
    rows = []
    for j in a.concurrency:
        with tempfile.TemporaryDirectory() as d:
            d = Path(d)
            t0 = time.perf_counter()
            synth_run(tasks, backend, d / "synth.jsonl", a.variants, j)
            t1 = time.perf_counter()
            rec = recover_run(d / "synth.jsonl", d / "recover.jsonl", backend, k=1, concurrency=j)
            t2 = time.perf_counter()
            built = build_mod.build(d / "recover.jsonl", d / "ds")
            t3 = time.perf_counter()
        rows.append({"concurrency": j, "synthesize_s": t1 - t0, "recover_s": t2 - t1, "build_s": t3 - t2,
                     "states": rec["states"], "verified": rec["kept"], "distinct": built["rows"],
                     "verified_per_min": rec["kept"] / ((t3 - t0) / 60),
                     "distinct_per_min": built["rows"] / ((t3 - t0) / 60)})
        print(json.dumps(rows[-1]), flush=True)
    print("| -j | synthesize (s) | recover (s) | build (s) | states | verified | distinct | verified / min | distinct / min |")
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['concurrency']} | {r['synthesize_s']:.1f} | {r['recover_s']:.1f} | {r['build_s']:.1f} | "
              f"{r['states']} | {r['verified']} | {r['distinct']} | {r['verified_per_min']:.0f} | "
              f"{r['distinct_per_min']:.1f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
