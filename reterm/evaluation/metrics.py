"""pass@k over repeated samples, per task, family and category, with 95% intervals that account for samples of one
task being alike (`clustered_interval`)."""

from __future__ import annotations

from collections import defaultdict
from math import comb, sqrt


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased estimator of pass@k from n samples with c passes: 1 - C(n-c, k) / C(n, k)."""
    if k > n:
        raise ValueError(f"pass@{k} needs at least {k} samples, got {n}")
    if n - c < k:
        return 1.0
    return 1.0 - comb(n - c, k) / comb(n, k)


def summarize_eval(rows: list[dict], k: int) -> dict:
    """Rows are results.jsonl lines. Infra failures carry no reward and are left out of n (and reported)."""
    per_task: dict[str, dict] = {}
    for r in rows:
        t = per_task.setdefault(r["task_id"], {"n": 0, "c": 0, "infra": 0, "family": r.get("family"),
                                               "category": r.get("category")})
        if r.get("infra_error"):
            t["infra"] += 1
            continue
        t["n"] += 1
        t["c"] += bool(r["passed"])
    for t in per_task.values():
        t["pass@1"] = t["c"] / t["n"] if t["n"] else None
        t[f"pass@{k}"] = pass_at_k(t["n"], t["c"], k) if t["n"] >= k else None

    def aggregate(tasks: list[dict]) -> dict:
        scored = [t for t in tasks if t["pass@1"] is not None]
        with_k = [t for t in tasks if t[f"pass@{k}"] is not None]
        return {"tasks": len(tasks), "scored_tasks": len(scored),
                "pass@1": round(sum(t["pass@1"] for t in scored) / len(scored), 4) if scored else None,
                f"pass@{k}": round(sum(t[f"pass@{k}"] for t in with_k) / len(with_k), 4) if with_k else None,
                "pass@1_ci95": task_interval([(t["c"], t["n"]) for t in scored]),
                "infra_errors": sum(t["infra"] for t in tasks)}

    groups: dict[str, dict[str, list]] = {"family": defaultdict(list), "category": defaultdict(list)}
    for t in per_task.values():
        groups["family"][t["family"] or "-"].append(t)
        groups["category"][t["category"] or "-"].append(t)
    return {
        "k": k,
        "overall": aggregate(list(per_task.values())),
        "by_family": {name: aggregate(ts) for name, ts in sorted(groups["family"].items())},
        "by_category": {name: aggregate(ts) for name, ts in sorted(groups["category"].items())},
        "by_task": per_task,
    }


def wilson_interval(successes: float, n: float, z: float = 1.96) -> tuple[float, float] | None:
    """95% (z=1.96) Wilson score interval of a rate; honest at small n and at 0 or n successes, unlike the normal
    approximation. None when there is nothing to estimate (n = 0). `successes` and `n` may be effective (non-integer)
    counts (`clustered_interval`)."""
    if n <= 0:
        return None
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # at 0 or n successes the bound is exactly 0 or 1; the float formula can land a hair inside (3e-18 at 0 of 108),
    # which puts the low bound above the rate itself
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high


def ci95(successes: int, n: int) -> list[float] | None:
    """The Wilson interval as the reports store it: [low, high] rounded to 4 places, None when n = 0."""
    ci = wilson_interval(successes, n)
    return [round(ci[0], 4), round(ci[1], 4)] if ci else None


def task_interval(tasks: list[tuple[int, int]]) -> list[float] | None:
    """95% interval of pass@1 over tasks, from (passes, samples) per scored task: `clustered_interval`."""
    return clustered_interval(tasks)


def intraclass_correlation(clusters: list[tuple[int, int]]) -> float:
    """How alike the samples of one cluster (a task's samples, a state's attempts) are, from (successes, samples)
    per cluster: the one-way ANOVA estimator for binary outcomes, clipped to [0, 1]. 0 where it cannot be estimated
    (one cluster, one sample each, or every sample alike: nothing shows that clusters differ)."""
    clusters = [(c, n) for c, n in clusters if n > 0]
    k, total = len(clusters), sum(n for _, n in clusters)
    if k < 2 or total <= k:
        return 0.0
    p = sum(c for c, _ in clusters) / total
    msb = sum(n * (c / n - p) ** 2 for c, n in clusters) / (k - 1)
    msw = sum(c * (1 - c / n) for c, n in clusters) / (total - k)
    n0 = (total - sum(n * n for _, n in clusters) / total) / (k - 1)
    denom = msb + (n0 - 1) * msw
    if denom <= 0:
        return 0.0
    return min(1.0, max(0.0, (msb - msw) / denom))


def clustered_interval(clusters: list[tuple[int, int]]) -> list[float] | None:
    """95% interval of a rate measured in clusters of samples that are not independent (several samples of a task,
    several attempts from one frozen state), from (successes, samples) per cluster: the Wilson interval over the
    effective number of samples, n / (1 + (m - 1) * ICC) with m the mean cluster size (Kish's design effect).

    Unlike a percentile bootstrap over clusters it never collapses: 0 of 16 samples gives [0, 0.19], not [0, 0].
    Clusters that always or never succeed count as one sample each (ICC 1); independent-looking ones as their
    samples (ICC 0); with one sample a cluster it is the plain Wilson interval. None when nothing was scored."""
    clusters = [(c, n) for c, n in clusters if n > 0]
    total = sum(n for _, n in clusters)
    if not total:
        return None
    m = total / len(clusters)
    effective = total / (1 + (m - 1) * intraclass_correlation(clusters))
    successes = sum(c for c, _ in clusters)
    ci = wilson_interval(effective if successes == total else successes * effective / total, effective)
    return [round(ci[0], 4), round(ci[1], 4)]


def unit_differences(a: dict[str, tuple[int, int]], b: dict[str, tuple[int, int]]) -> list[float]:
    """A's rate minus B's on each unit both scored (sorted by unit), from (successes, samples) per unit."""
    keys = sorted(k for k in a.keys() & b.keys() if a[k][1] > 0 and b[k][1] > 0)
    return [a[k][0] / a[k][1] - b[k][0] / b[k][1] for k in keys]


def paired_comparison(a: dict[str, tuple[int, int]], b: dict[str, tuple[int, int]], resamples: int = 10000,
                      seed: int = 0) -> dict:
    """Method A against method B on the same units (frozen states, or tasks), from (successes, samples) per unit for
    each: the mean over units of A's rate minus B's, a 95% paired bootstrap interval of it (units resampled), and a
    two-sided paired permutation p-value (each unit's difference keeps or flips its sign: exact when there are at
    most 16 units that differ, Monte Carlo otherwise). With one sample a unit the test is McNemar's exact test.
    Units scored by only one of the two are left out (`units` says how many were compared)."""
    import random

    diffs = unit_differences(a, b)
    n = len(diffs)
    out = {"units": n, "a_better": sum(d > 0 for d in diffs), "b_better": sum(d < 0 for d in diffs)}
    if not n:
        return {**out, "difference": None, "ci95": None, "p_value": None}
    mean = sum(diffs) / n
    rng = random.Random(seed)
    boots = sorted(sum(diffs[rng.randrange(n)] for _ in range(n)) / n for _ in range(resamples))
    ci = [boots[int(0.025 * (resamples - 1))], boots[int(0.975 * (resamples - 1))]]
    nonzero = [abs(d) for d in diffs if d != 0]
    observed = abs(sum(diffs)) - 1e-12
    if len(nonzero) <= 16:  # every sign pattern
        hits = sum(abs(sum(x if mask >> i & 1 else -x for i, x in enumerate(nonzero))) >= observed
                   for mask in range(1 << len(nonzero)))
        p = hits / (1 << len(nonzero))
    else:
        hits = sum(abs(sum(x if rng.random() < 0.5 else -x for x in nonzero)) >= observed for _ in range(resamples))
        p = (hits + 1) / (resamples + 1)
    return {**out, "difference": round(mean, 4), "ci95": [round(ci[0], 4), round(ci[1], 4)], "p_value": round(p, 4)}


def paired_power(rates: list[float], attempts: int, difference: float, alpha: float = 0.05, trials: int = 400,
                 seed: int = 0) -> float:
    """The chance that `paired_comparison` finds p < alpha when method A's recovery rate on each unit is B's plus
    `difference` (on the log-odds scale, so rates stay in [0, 1] and the mean shift is `difference`), B's per-unit
    rates are `rates` (e.g. the start's, measured), and each method makes `attempts` attempts a unit. A design
    estimate: the units are those of the benchmark, the noise is the attempts' sampling; the test is the paired
    sign-flip test in its large-sample form (z = sum of differences / root of the sum of their squares)."""
    import math
    import random

    rng = random.Random(seed)

    def shifted(shift: float) -> list[float]:
        out = []
        for r in rates:
            r = min(max(r, 1e-3), 1 - 1e-3)
            out.append(1 / (1 + math.exp(-(math.log(r / (1 - r)) + shift))))
        return out

    lo, hi = -10.0, 10.0  # the log-odds shift whose mean rate change is `difference`
    base = sum(min(max(r, 1e-3), 1 - 1e-3) for r in rates) / len(rates)
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if sum(shifted(mid)) / len(rates) - base < difference else (lo, mid)
    better = shifted((lo + hi) / 2)
    found = 0
    for _ in range(trials):
        diffs = [(sum(rng.random() < pa for _ in range(attempts)) - sum(rng.random() < pb for _ in range(attempts)))
                 / attempts for pa, pb in zip(better, rates)]
        spread = math.sqrt(sum(d * d for d in diffs))
        if spread > 0:
            z = abs(sum(diffs)) / spread
            found += math.erfc(z / math.sqrt(2)) < alpha  # two-sided normal tail
    return found / trials
