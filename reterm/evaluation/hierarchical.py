"""Two training methods compared with the training seed as the unit: a hierarchical bootstrap of the difference in
a binary endpoint (recovery on frozen states, pass@1 on tasks), each seed's own rates, a non-inferiority check, and
the power of a design by simulation.

The data. An *arm* is one method's trained runs: `{seed: [StateResult, ...]}`, one list per training seed, each
`StateResult` one unit as that run scored it: the task instance it belongs to (the cluster), the unit's id (a frozen
state; for pass@1 the task itself), passes, attempts (infra failures left out), and an optional error category.
`seed_results` reads a unit list from an evaluation JSON of `reterm.compare.evaluate`; `arm_from_records` builds an
arm from flat attempt records `{seed, task, state, passed[, category, infra_error]}`.

The estimand. A seed's rate is its passes over its attempts (every state weighs by its attempts, as the reports'
pooled rates do); an arm's rate is the mean of its seeds' rates, each seed weighing the same; the difference is arm
A's rate minus arm B's.

Why seeds. The paired tests of `metrics.paired_comparison` resample states with the trained runs held fixed: they
measure the evaluation's noise, not how another seed would train, and two seeds of one method can differ by more than
the methods do (the earlier comparison: plain GRPO's recovery 0.391 in seed 0 and 0.013 in seed 1)."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class StateResult:
    """One unit as one trained run scored it: `passed` of `attempts` (infra failures not counted) on `state`, which
    belongs to task instance `task`. For pass@1 the unit is a task: `state == task`."""
    task: str
    state: str
    passed: int
    attempts: int
    category: str | None = None


Arm = Mapping[int, Sequence[StateResult]]  # training seed -> the units that run scored
Where = Callable[[StateResult], bool]


def seed_results(evaluation: dict, part: str = "recovery", name: str | None = None) -> list[StateResult]:
    """The units of one checkpoint's evaluation (the JSON `reterm.compare.evaluate` writes): `recovery` gives its
    frozen states (`per_state`: state -> [category, recovered, scored]; the task is the state id less its episode and
    turn), `heldout` its tasks (`per_task`: task -> [passed, scored]). With `name`, those of the benchmark or
    held-out set of that name (the evaluation's `sets`); without, the first (the evaluation's own `recovery` and
    `heldout`). A set the evaluation lacks is a KeyError naming it."""
    from reterm.compare import state_task

    if part not in ("recovery", "heldout"):
        raise ValueError(f"part must be 'recovery' or 'heldout', not {part!r}")
    if name is None:
        counts = evaluation[part]
    else:
        sets = evaluation.get("sets", {}).get(part, {})
        if name not in sets:
            raise KeyError(f"the evaluation has no {part} set {name!r} (it has: {', '.join(sets) or 'none'})")
        counts = sets[name]
    if part == "recovery":
        return [StateResult(state_task(s), s, int(c), int(n), cat)
                for s, (cat, c, n) in sorted(counts["per_state"].items())]
    return [StateResult(t, t, int(c), int(n)) for t, (c, n) in sorted(counts["per_task"].items())]


def arm_from_records(records: Iterable[Mapping]) -> dict[int, list[StateResult]]:
    """An arm from flat attempt records (`seed`, `task`, `state`, `passed`, optionally `category` and
    `infra_error`): one `StateResult` per seed and state, infra failures left out of the attempts."""
    counts: dict[tuple[int, str, str], list] = {}
    for r in records:
        row = counts.setdefault((int(r["seed"]), str(r["task"]), str(r["state"])), [0, 0, r.get("category")])
        if not r.get("infra_error"):
            row[0] += bool(r["passed"])
            row[1] += 1
    arm: dict[int, list[StateResult]] = {}
    for (seed, task, state), (c, n, cat) in sorted(counts.items()):
        arm.setdefault(seed, []).append(StateResult(task, state, c, n, cat))
    return arm


def seed_rates(arm: Arm, where: Where | None = None) -> dict[int, float | None]:
    """Each seed's rate (passes over attempts of the units `where` keeps); None for a seed that scored none."""
    out: dict[int, float | None] = {}
    for seed, units in sorted(arm.items()):
        kept = [u for u in units if where is None or where(u)]
        n = sum(u.attempts for u in kept)
        out[seed] = sum(u.passed for u in kept) / n if n else None
    return out


@dataclass(frozen=True)
class SeedDifference:
    """One seed label's rate in each arm, and A's minus B's where both arms have it. Seeds of two arms are separate
    training runs: the same label pairs them only by their sampling seed, not as matched units."""
    seed: int
    rate_a: float | None
    rate_b: float | None
    difference: float | None


def seed_differences(a: Arm, b: Arm, where: Where | None = None) -> list[SeedDifference]:
    """Every seed of either arm, one row each, in seed order."""
    ra, rb = seed_rates(a, where), seed_rates(b, where)
    rows = []
    for seed in sorted(ra.keys() | rb.keys()):
        x, y = ra.get(seed), rb.get(seed)
        rows.append(SeedDifference(seed, x, y, None if x is None or y is None else x - y))
    return rows


@dataclass(frozen=True)
class ArmComparison:
    """Arm A minus arm B with seeds as the unit. `ci95` is the percentile interval of the hierarchical bootstrap,
    `p_value` its two-sided p (twice the smaller tail at 0, each tail counted as (hits + 1) / (resamples + 1)),
    `below_zero` the share of resamples at or below 0. `welch_p` and `welch_ci95` are Welch's t-test on the seeds'
    rates and its 95% interval (seeds as the unit, the benchmark held fixed); None with fewer than two seeds in an
    arm. With few seeds the percentile interval is too narrow (it treats the seeds drawn as the only ones there could
    be): decide on both."""
    rate_a: float
    rate_b: float
    difference: float
    ci95: tuple[float, float]
    p_value: float
    below_zero: float
    welch_p: float | None
    welch_ci95: tuple[float, float] | None
    seeds: tuple[int, int]
    tasks: int
    states: int
    resamples: int
    paired: bool


@dataclass
class _Units:
    """Both arms' counts as arrays over one list of units ordered by task: each unit's task (`task_of`), where each
    task's units start and how many it has, and per arm (passes, attempts), each seeds x units."""
    task_of: np.ndarray
    task_start: np.ndarray
    task_size: np.ndarray
    arms: list[tuple[np.ndarray, np.ndarray]]

    @property
    def units(self) -> int:
        return len(self.task_of)


def _task_runs(task_of: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Starts and sizes of the runs of equal task ids in `task_of` (units ordered by task)."""
    if not len(task_of):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    starts = np.flatnonzero(np.r_[True, task_of[1:] != task_of[:-1]])
    return starts, np.diff(np.r_[starts, len(task_of)])


def _units(a: Arm, b: Arm, where: Where | None) -> _Units:
    keep = lambda u: u.attempts > 0 and (where is None or where(u))  # noqa: E731
    keys = sorted({(u.task, u.state) for arm in (a, b) for units in arm.values() for u in units if keep(u)})
    index = {k: i for i, k in enumerate(keys)}
    task_ids = {t: i for i, t in enumerate(sorted({t for t, _ in keys}))}
    task_of = np.array([task_ids[t] for t, _ in keys], dtype=np.int64)
    arms = []
    for arm in (a, b):
        seeds = sorted(s for s, units in arm.items() if any(keep(u) for u in units))
        passed, attempts = np.zeros((len(seeds), len(keys))), np.zeros((len(seeds), len(keys)))
        for i, s in enumerate(seeds):
            for u in filter(keep, arm[s]):
                passed[i, index[u.task, u.state]] += u.passed
                attempts[i, index[u.task, u.state]] += u.attempts
        arms.append((passed, attempts))
    return _Units(task_of, *_task_runs(task_of), arms)


def _unit_weights(rng: np.random.Generator, starts: np.ndarray, sizes: np.ndarray, units: int) -> np.ndarray:
    """How often each unit is drawn when the tasks are drawn with replacement and, inside each task drawn, its units
    are drawn with replacement (as many as it has)."""
    picked = np.bincount(rng.integers(len(starts), size=len(starts)), minlength=len(starts))
    draws = picked * sizes
    first = np.repeat(starts, draws)
    size = np.repeat(sizes, draws)
    return np.bincount(first + (rng.random(len(first)) * size).astype(np.int64), minlength=units).astype(float)


def _arm_rate(rng: np.random.Generator, passed: np.ndarray, attempts: np.ndarray, weights: np.ndarray) -> float:
    """One resample of an arm: its seeds drawn with replacement, each drawn seed's attempts drawn again (binomial at
    its observed rate per unit) on the units `weights` drew (a row per seed, or one row for all seeds); the mean of
    the drawn seeds' rates. A unit drawn w times contributes w times its attempts."""
    seeds = len(passed)
    drawn = rng.integers(seeds, size=seeds)
    w = weights[drawn] if weights.ndim == 2 else weights[None, :]
    n = attempts[drawn] * w
    rate = np.divide(passed[drawn], attempts[drawn], out=np.zeros_like(n), where=attempts[drawn] > 0)
    x = rng.binomial(n.astype(np.int64), rate)
    den = n.sum(axis=1)
    ok = den > 0
    return float((x.sum(axis=1)[ok] / den[ok]).mean()) if ok.any() else float("nan")


def _seed_weights(rng: np.random.Generator, task_of: np.ndarray, scored: np.ndarray) -> np.ndarray:
    """`_unit_weights` over the units one seed scored (its tasks, then their states), 0 on the rest."""
    idx = np.flatnonzero(scored)
    w = np.zeros(len(task_of))
    if len(idx):
        w[idx] = _unit_weights(rng, *_task_runs(task_of[idx]), len(idx))
    return w


def _bootstrap(u: _Units, rng: np.random.Generator, resamples: int, paired: bool) -> np.ndarray:
    """Resampled differences (A - B). Paired: every run was scored on the same frozen units, so each resample draws
    the tasks and their states once and scores both arms' drawn seeds on them (seeds and tasks crossed). Nested:
    each drawn seed draws its own tasks and states from the units it scored (seeds, then tasks, then states)."""
    out = np.empty(resamples)
    for r in range(resamples):
        rates = []
        if paired:
            w = _unit_weights(rng, u.task_start, u.task_size, u.units)
        for passed, attempts in u.arms:
            if not paired:
                w = np.stack([_seed_weights(rng, u.task_of, row > 0) for row in attempts])
            rates.append(_arm_rate(rng, passed, attempts, w))
        out[r] = rates[0] - rates[1]
    return out


def hierarchical_bootstrap(a: Arm, b: Arm, resamples: int = 4000, seed: int = 0, paired: bool = True,
                           where: Where | None = None) -> ArmComparison:
    """Arm A's rate minus arm B's (module docstring) with a 95% percentile interval and a two-sided p from a
    hierarchical bootstrap: per resample, the seeds of each arm drawn with replacement, the task instances drawn with
    replacement, inside each the states, and each state's attempts drawn again at its observed rate. Deterministic
    given `seed`. `where` keeps some units only (e.g. one error category). `paired` (the default) draws one set of
    tasks and states per resample for both arms, as every run is scored on the same frozen states; `paired=False`
    draws them anew for each drawn seed (the nested order: seeds, then tasks, then states), which also counts the
    benchmark's own composition as noise, and is wider."""
    u = _units(a, b, where)
    if not u.units or not all(len(p) for p, _ in u.arms):
        raise ValueError("both arms need at least one seed that scored a kept unit")
    rates = [float(np.mean([p[i].sum() / n[i].sum() for i in range(len(p)) if n[i].sum() > 0])) for p, n in u.arms]
    diffs = _bootstrap(u, np.random.default_rng(seed), resamples, paired)
    low, high = np.percentile(diffs, [2.5, 97.5])
    at_or_below, at_or_above = int((diffs <= 0).sum()), int((diffs >= 0).sum())
    p = min(1.0, 2 * min(at_or_below + 1, at_or_above + 1) / (resamples + 1))
    per_seed = [[r for r in seed_rates(arm, where).values() if r is not None] for arm in (a, b)]
    welch = welch_test(*per_seed) if min(map(len, per_seed)) >= 2 else None
    return ArmComparison(rates[0], rates[1], rates[0] - rates[1], (float(low), float(high)), p,
                         at_or_below / resamples, None if welch is None else welch[1],
                         None if welch is None else welch_interval(*per_seed), (len(u.arms[0][0]),
                         len(u.arms[1][0])), len(u.task_start), u.units, resamples, paired)


def by_category(a: Arm, b: Arm, min_states: int = 20, **bootstrap) -> dict[str, ArmComparison]:
    """`hierarchical_bootstrap` on each error category that has at least `min_states` distinct states (over both
    arms), by category name."""
    states: dict[str, set] = {}
    for arm in (a, b):
        for units in arm.values():
            for unit in units:
                if unit.category is not None:
                    states.setdefault(unit.category, set()).add((unit.task, unit.state))
    return {cat: hierarchical_bootstrap(a, b, where=lambda unit, c=cat: unit.category == c, **bootstrap)
            for cat, seen in sorted(states.items()) if len(seen) >= min_states}


@dataclass(frozen=True)
class NonInferiority:
    """A is non-inferior to B when the lower bound of A - B's 95% interval is above -margin (a one-sided test at
    2.5%), the bootstrap's (`lower`) and, where there are two seeds or more an arm, Welch's (`welch_lower`) both;
    the margin is fixed before the data."""
    margin: float
    lower: float
    welch_lower: float | None
    noninferior: bool
    comparison: ArmComparison


def non_inferiority(a: Arm, b: Arm, margin: float, **bootstrap) -> NonInferiority:
    """A against B with a non-inferiority margin (a positive rate difference, e.g. 0.05), from the hierarchical
    bootstrap's interval."""
    if margin < 0:
        raise ValueError(f"margin is a size, >= 0; got {margin}")
    c = hierarchical_bootstrap(a, b, **bootstrap)
    welch_lower = None if c.welch_ci95 is None else c.welch_ci95[0]
    return NonInferiority(margin, c.ci95[0], welch_lower,
                          c.ci95[0] > -margin and (welch_lower is None or welch_lower > -margin), c)


def _betainc(a: float, b: float, x: np.ndarray) -> np.ndarray:
    """The regularized incomplete beta function I_x(a, b) (continued fraction, Numerical Recipes' betacf) for arrays
    of x; a and b scalars."""
    x = np.clip(np.asarray(x, dtype=float), 0.0, 1.0)
    flip = x > (a + 1) / (a + b + 2)
    aa, bb = np.where(flip, b, a), np.where(flip, a, b)
    xx = np.where(flip, 1 - x, x)
    tiny = 1e-300
    c = np.ones_like(xx)
    d = 1 - (aa + bb) * xx / (aa + 1)
    d = 1 / np.where(np.abs(d) < tiny, tiny, d)
    f = d.copy()
    for m in range(1, 300):
        for num in (m * (bb - m) * xx / ((aa + 2 * m - 1) * (aa + 2 * m)),
                    -(aa + m) * (aa + bb + m) * xx / ((aa + 2 * m) * (aa + 2 * m + 1))):
            d = 1 + num * d
            d = 1 / np.where(np.abs(d) < tiny, tiny, d)
            c = 1 + num / c
            c = np.where(np.abs(c) < tiny, tiny, c)
            f = f * c * d
        if np.all(np.abs(c * d - 1) < 1e-12):
            break
    lg = np.vectorize(math.lgamma)
    with np.errstate(divide="ignore"):
        front = np.exp(lg(aa + bb) - lg(aa) - lg(bb) + aa * np.log(xx) + bb * np.log1p(-xx)) / aa
    out = front * f
    return np.where(flip, 1 - out, out)


def t_two_sided_p(t, df) -> np.ndarray:
    """Two-sided p of Student's t statistic(s) `t` with `df` degrees of freedom (df may be fractional, as Welch's)."""
    t, df = np.broadcast_arrays(np.abs(np.asarray(t, dtype=float)), np.asarray(df, dtype=float))
    out = np.empty(t.shape)
    for d in np.unique(df):  # one continued fraction per distinct df (scalar a, b)
        m = df == d
        out[m] = _betainc(d / 2, 0.5, d / (d + t[m] ** 2))
    return out


def welch_test(x: Sequence[float], y: Sequence[float]) -> tuple[float, float, float]:
    """Welch's t-test of mean(x) - mean(y): (difference, two-sided p, degrees of freedom). Two values or more a
    side; p is 1 when both sides are constant and equal, 0 when constant and different."""
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    if len(x) < 2 or len(y) < 2:
        raise ValueError("Welch's test needs two values or more on each side")
    diff = float(x.mean() - y.mean())
    va, vb = x.var(ddof=1) / len(x), y.var(ddof=1) / len(y)
    if va + vb == 0:
        return diff, float(diff == 0), float(len(x) + len(y) - 2)
    df = (va + vb) ** 2 / (va ** 2 / (len(x) - 1) + vb ** 2 / (len(y) - 1))
    return diff, float(t_two_sided_p(diff / math.sqrt(va + vb), df)), float(df)


def welch_interval(x: Sequence[float], y: Sequence[float], level: float = 0.95) -> tuple[float, float]:
    """Welch's `level` interval of mean(x) - mean(y) (two values or more a side)."""
    diff, _, df = welch_test(x, y)
    x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    se = math.sqrt(x.var(ddof=1) / len(x) + y.var(ddof=1) / len(y))
    lo, hi = 0.0, 1e4  # the t with two-sided p = 1 - level
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if float(t_two_sided_p(mid, df)) > 1 - level else (lo, mid)
    return diff - hi * se, diff + hi * se


# Gauss-Hermite nodes for E[f(Z)], Z ~ N(0, 1): the calibration of the simulation's logit-scale parameters
_NODES, _WEIGHTS = np.polynomial.hermite_e.hermegauss(48)
_WEIGHTS = _WEIGHTS / _WEIGHTS.sum()


def _expit(x):
    return 0.5 * (1 + np.tanh(0.5 * x))


def _solve_mean(rate: float, sd: float) -> float:
    """The logit-scale centre mu with E[expit(mu + sd Z)] = rate."""
    lo, hi = -30.0, 30.0
    for _ in range(80):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if float(_WEIGHTS @ _expit(mid + sd * _NODES)) < rate else (lo, mid)
    return (lo + hi) / 2


def _seed_logit_sd(rate: float, seed_sd: float, unit_sd: float) -> tuple[float, float]:
    """(mu, sigma_seed) on the logit scale such that the arm's mean rate is `rate` and its seeds' rates (each the
    mean over units whose log-odds spread with `unit_sd`) have standard deviation `seed_sd`."""
    def seed_spread(sigma: float) -> tuple[float, float]:
        mu = _solve_mean(rate, math.hypot(sigma, unit_sd))
        seed_means = _expit(mu + sigma * _NODES[:, None] + unit_sd * _NODES[None, :]) @ _WEIGHTS
        centre = float(_WEIGHTS @ seed_means)
        return mu, float(math.sqrt(max(0.0, _WEIGHTS @ (seed_means - centre) ** 2)))

    if seed_sd <= 0:
        return _solve_mean(rate, unit_sd), 0.0
    # at most sqrt(rate (1 - rate)), when every seed passes all or nothing; logit SD 20 is as near as it is worth
    if seed_spread(20.0)[1] < seed_sd:
        raise ValueError(f"a between-seed SD of {seed_sd} is not reachable at a mean rate of {rate} (at most "
                         f"{math.sqrt(rate * (1 - rate)):.3f}, when each seed passes everything or nothing)")
    lo, hi = 0.0, 20.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if seed_spread(mid)[1] < seed_sd else (lo, mid)
    sigma = (lo + hi) / 2
    return seed_spread(sigma)[0], sigma


def _unit_sds(task_icc: float, state_icc: float) -> tuple[float, float]:
    """Logit-scale SDs of task instances and of states inside a task from the latent ICCs (logistic residual
    variance pi^2 / 3)."""
    if not 0 <= task_icc <= state_icc < 1:
        raise ValueError(f"need 0 <= task_icc <= state_icc < 1; got {task_icc}, {state_icc}")
    resid = math.pi ** 2 / 3
    return math.sqrt(task_icc / (1 - state_icc) * resid), math.sqrt((state_icc - task_icc) / (1 - state_icc) * resid)


def state_icc_from_zeros(rate: float, zero_share: float, attempts: int) -> float:
    """The latent (logit-scale) ICC of attempts on one state that makes `zero_share` of the states pass none of
    `attempts` attempts at a mean rate of `rate`: how alike a state's attempts are, read off a benchmark's count of
    states never recovered. A share at or below the independent one (ICC 0) gives 0."""
    def zeros(sd: float) -> float:
        mu = _solve_mean(rate, sd)
        return float(_WEIGHTS @ (1 - _expit(mu + sd * _NODES)) ** attempts)

    if zero_share <= zeros(0.0):
        return 0.0
    lo, hi = 0.0, 30.0
    for _ in range(60):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if zeros(mid) < zero_share else (lo, mid)
    var = ((lo + hi) / 2) ** 2
    return var / (var + math.pi ** 2 / 3)


def _simulate(rng: np.random.Generator, sims: int, seeds: int, mu: float, sigma: float, unit_logit: np.ndarray,
              attempts: int) -> tuple[np.ndarray, np.ndarray]:
    """Passes (sims x seeds x units) of one arm on each simulated benchmark (`unit_logit`: sims x units), and the
    seeds' rates (sims x seeds)."""
    shift = rng.normal(0.0, sigma, size=(sims, seeds, 1))
    passed = rng.binomial(attempts, _expit(mu + shift + unit_logit[:, None, :]))
    return passed, passed.mean(axis=2) / attempts


def power(rate_a: float, rate_b: float, seed_sd: float | tuple[float, float], seeds: int, tasks: int,
          states_per_task: int, attempts: int, task_icc: float = 0.45, state_icc: float = 0.9, margin: float = 0.0,
          alpha: float = 0.05, sims: int = 2000, test: str = "welch", resamples: int = 400, seed: int = 0) -> float:
    """The chance that a design finds A better than B (margin 0: the lower bound of the (1 - alpha) interval of
    A - B above 0) or A non-inferior to B (margin m > 0: the lower bound above -m), by simulating the whole design.

    The model (logit scale): each simulated benchmark draws `tasks` task instances (SD from `task_icc`) and
    `states_per_task` states in each (SD from `state_icc` - `task_icc`); every run of both arms is scored on that
    one benchmark; each run (seed) shifts all its log-odds by a seed effect; each state gets `attempts` binomial
    attempts. The ICCs are latent: `task_icc` is the correlation of two attempts on different states of one task,
    `state_icc` of two attempts on one state (`state_icc_from_zeros` reads one off a benchmark). `seed_sd` (one
    value, or one an arm) is on the rate scale: the standard deviation between seeds of an arm's rate on the
    benchmark, what seeds of an earlier comparison show; the seed effect's logit SD is the one that reproduces it,
    and the arms' centres reproduce `rate_a` and `rate_b` as mean rates. A method's effect is the same log-odds shift
    on every task (no task x method interaction). The default ICCs are those of benchmarks/confirm/design.md.

    `test`: `welch` (the default, fast) applies Welch's t-test to the seeds' rates, a documented approximation of the
    analysis; `bootstrap` runs `hierarchical_bootstrap`'s paired resampling (`resamples` each) on every simulated
    experiment, and `both` asks both to succeed (the design's decision rule). Deterministic given `seed`."""
    if test not in ("welch", "bootstrap", "both"):
        raise ValueError(f"test must be welch, bootstrap or both; got {test!r}")
    if seeds < 2:
        raise ValueError("power needs at least two seeds an arm")
    sd_a, sd_b = seed_sd if isinstance(seed_sd, tuple) else (seed_sd, seed_sd)
    task_sd, state_sd = _unit_sds(task_icc, state_icc)
    unit_sd = math.hypot(task_sd, state_sd)
    (mu_a, sig_a), (mu_b, sig_b) = _seed_logit_sd(rate_a, sd_a, unit_sd), _seed_logit_sd(rate_b, sd_b, unit_sd)
    rng = np.random.default_rng(seed)
    units = tasks * states_per_task
    unit_logit = (np.repeat(rng.normal(0.0, task_sd, size=(sims, tasks)), states_per_task, axis=1)
                  + rng.normal(0.0, state_sd, size=(sims, units)))
    pa, ra = _simulate(rng, sims, seeds, mu_a, sig_a, unit_logit, attempts)
    pb, rb = _simulate(rng, sims, seeds, mu_b, sig_b, unit_logit, attempts)
    ok = np.ones(sims, dtype=bool)
    if test in ("welch", "both"):
        diff = ra.mean(axis=1) - rb.mean(axis=1)
        va, vb = ra.var(axis=1, ddof=1) / seeds, rb.var(axis=1, ddof=1) / seeds
        se = np.sqrt(va + vb)
        df = np.where(se > 0, (va + vb) ** 2 / np.maximum(va ** 2 + vb ** 2, 1e-300) * (seeds - 1), 2 * seeds - 2)
        t = np.divide(diff + margin, se, out=np.where(diff + margin > 0, np.inf, -np.inf), where=se > 0)
        # df to 0.1: one continued fraction per distinct df, and p moves by < 1e-3 within 0.1 of df
        ok &= (t > 0) & (t_two_sided_p(np.where(np.isfinite(t), t, 1e6), np.round(df, 1)) < alpha)
    if test in ("bootstrap", "both"):
        task_of = np.repeat(np.arange(tasks), states_per_task)
        starts, sizes = _task_runs(task_of)
        n = np.full((seeds, units), float(attempts))
        for i in np.flatnonzero(ok):
            u = _Units(task_of, starts, sizes, [(pa[i].astype(float), n), (pb[i].astype(float), n)])
            diffs = _bootstrap(u, rng, resamples, paired=True)
            ok[i] = np.percentile(diffs, 100 * alpha / 2) > -margin
    return float(ok.mean())


def seeds_needed(target: float = 0.8, max_seeds: int = 20, **design) -> int | None:
    """The fewest seeds an arm (2..max_seeds) at which `power(**design)` reaches `target`; None if none does."""
    for seeds in range(2, max_seeds + 1):
        if power(seeds=seeds, **design) >= target:
            return seeds
    return None
