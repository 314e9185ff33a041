"""The power figures of benchmarks/confirm/design.md, from `reterm.evaluation.hierarchical` (about 1 min on 2 cores;
`--bootstrap-size` adds the bootstrap's false-positive check and the decision rule's power, about 2 more):

    python benchmarks/confirm/power_table.py [--bootstrap-size]

Rule 4 (design section 6), on the frozen benchmarks as the arms score them and the start's pass rates:

    python benchmarks/confirm/power_table.py --frozen RUN/b_in/bench RUN/b_out/bench --pass1 0.39 0.0014 \
        --recovery 0.13
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from reterm.evaluation.hierarchical import power, state_icc_from_zeros

SEEDS = (3, 4, 5, 8, 10, 12)
# the primary endpoint's benchmark as assumed (40 task instances x 4 states, 4 attempts a state), latent ICCs
RECOVERY = dict(tasks=40, states_per_task=4, attempts=4, task_icc=0.45, state_icc=0.9)
# pass@1 on the fresh instances of the training families: 117 tasks, 2 samples each, one unit a task
PASS1 = dict(tasks=117, states_per_task=1, attempts=2, task_icc=0.8, state_icc=0.8)


def bench_shape(bench: Path) -> dict:
    """A frozen benchmark's task instances and (mean, rounded) states an instance, as `power` takes them."""
    rows = json.loads((Path(bench) / "manifest.json").read_text())["states_list"]
    per_task = Counter(r["task_id"] for r in rows)
    return {"states": len(rows), "tasks": len(per_task), "states_per_task": max(1, round(len(rows) / len(per_task))),
            "families": len({r["family"] for r in rows})}


def frozen(benches: list[Path], pass1: list[float], recovery: list[float]) -> None:
    """Section 7 again on the real counts (rule 4): E1 / E3 power for +0.05, +0.10, +0.20 over each benchmark's
    reference rate at the central spread and at 0.08; E2 / E4 power at margins 0.05 / 0.08 / 0.10 with the pass@1 seed
    SD held on the rate scale (0.047, the earlier seeds') and on the logit scale (what 0.047 at 0.90 is at the start's
    rate)."""
    tasks_pass = (117, 72)
    for i, bench in enumerate(benches):
        shape = bench_shape(bench)
        print(f"{bench}: {shape}")
        recovery_design = dict(RECOVERY, tasks=shape["tasks"], states_per_task=shape["states_per_task"])
        base = recovery[i]
        for effect in (0.05, 0.10, 0.20):
            for sd in ((0.03, 0.08), 0.08):
                row = [power(base + effect, base, sd, seeds=s, sims=10000, **recovery_design) for s in SEEDS]
                print(f"  recovery {base:.2f} +{effect:.2f}, seed SD {sd}: " + " | ".join(f"{p:.2f}" for p in row))
        rate = pass1[i]
        logit_sd = 0.047 / (0.9 * 0.1) * rate * (1 - rate)
        for margin in (0.05, 0.08, 0.10):
            for sd in (0.047, round(logit_sd, 3)):
                row = [power(rate, rate, sd, seeds=s, margin=margin, sims=10000,
                             **dict(PASS1, tasks=tasks_pass[i])) for s in SEEDS]
                print(f"  pass@1 {rate:.2f} margin {margin}, seed SD {sd}: " + " | ".join(f"{p:.2f}" for p in row))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bootstrap-size", action="store_true")
    ap.add_argument("--frozen", nargs=2, type=Path, metavar=("B_IN", "B_OUT"),
                    help="rule 4: the frozen benchmarks as the arms score them")
    ap.add_argument("--pass1", nargs=2, type=float, metavar=("IN", "OUT"),
                    help="the start's pass rate on each benchmark's tasks (its build episodes)")
    ap.add_argument("--recovery", type=float, default=0.13,
                    help="B-in: the rate the reference arm is taken to reach (the main job's in-distribution recovery)")
    ap.add_argument("--recovery-out", type=float, default=0.01,
                    help="B-out: the same (the main job's models recovered from none of its held-out-family states)")
    a = ap.parse_args()
    if a.frozen:
        if not a.pass1:
            ap.error("--frozen needs --pass1")
        frozen(a.frozen, a.pass1, [a.recovery, a.recovery_out])
        return
    print("latent state ICC from the states never recovered in 4 attempts (earlier benchmark, 172 states):")
    for name, rate, zeros in (("start", 0.228, 93), ("plain GRPO s0 step 100", 0.391, 91),
                              ("ReTerm-GRPO s0 step 100", 0.480, 86), ("ReTerm-GRPO s1 step 100", 0.520, 57)):
        print(f"  {name}: {state_icc_from_zeros(rate, zeros / 172, 4):.2f}")
    print("recovery, superiority, plain+done at 0.40; power at seeds", SEEDS)
    for effect in (0.05, 0.10, 0.20):
        for sd in (0.03, 0.05, 0.08, 0.155):
            row = [power(0.40 + effect, 0.40, sd, seeds=s, sims=3000, **RECOVERY) for s in SEEDS]
            print(f"  +{effect:.2f}, seed SD {sd}: " + " | ".join(f"{p:.2f}" for p in row))
        row = [power(0.40 + effect, 0.40, (0.03, 0.08), seeds=s, sims=3000, **RECOVERY) for s in SEEDS]
        print(f"  +{effect:.2f}, seed SD 0.03 (ReTerm+done) / 0.08 (plain+done): "
              + " | ".join(f"{p:.2f}" for p in row))
    print("pass@1 non-inferiority, both arms 0.90, no true difference; power at seeds", SEEDS)
    for margin in (0.05, 0.08):
        for sd in (0.047, 0.092):
            row = [power(0.90, 0.90, sd, seeds=s, margin=margin, sims=3000, **PASS1) for s in SEEDS]
            print(f"  margin {margin}, seed SD {sd}: " + " | ".join(f"{p:.2f}" for p in row))
    print("sensitivity, +0.10, seed SD 0.08, 8 seeds:")
    for task_icc, state_icc in ((0.3, 0.6), (0.45, 0.9), (0.6, 0.95)):
        p = power(0.5, 0.4, 0.08, seeds=8, sims=3000, **{**RECOVERY, "task_icc": task_icc, "state_icc": state_icc})
        print(f"  latent ICC task {task_icc}, state {state_icc}: {p:.2f}")
    for tasks, per_task in ((20, 4), (40, 4), (80, 4), (40, 8)):
        p = power(0.5, 0.4, 0.08, seeds=8, sims=3000, **{**RECOVERY, "tasks": tasks, "states_per_task": per_task})
        print(f"  {tasks} task instances x {per_task} states: {p:.2f}")
    if a.bootstrap_size:
        print("false positives (one-sided, nominal 0.025) with no true difference, 0.45 both, seed SD 0.05:")
        for seeds in (3, 5):
            boot = power(0.45, 0.45, 0.05, seeds=seeds, sims=300, resamples=300, test="bootstrap", **RECOVERY)
            welch = power(0.45, 0.45, 0.05, seeds=seeds, sims=4000, **RECOVERY)
            print(f"  {seeds} seeds: bootstrap alone {boot:.3f} (300 experiments), Welch {welch:.3f} (4000)")
        print("the decision rule (bootstrap and Welch both) against Welch alone:")
        for rate_a, sd, seeds in ((0.5, 0.03, 4), (0.6, 0.08, 5), (0.5, 0.08, 8)):
            both = power(rate_a, 0.40, sd, seeds=seeds, sims=300, resamples=300, test="both", **RECOVERY)
            welch = power(rate_a, 0.40, sd, seeds=seeds, sims=3000, **RECOVERY)
            print(f"  +{rate_a - 0.4:.2f}, seed SD {sd}, {seeds} seeds: both {both:.2f} (300), Welch {welch:.2f} (3000)")


if __name__ == "__main__":
    main()
