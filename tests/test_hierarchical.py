"""Comparisons with the training seed as the unit (reterm/evaluation/hierarchical.py): the hierarchical bootstrap,
each seed's own rates, non-inferiority, and the power of a design by simulation."""

from __future__ import annotations

import math

import numpy as np
import pytest

from reterm.evaluation import hierarchical as h
from reterm.evaluation.hierarchical import StateResult


def _seed(passes: list[int], attempts: int = 4, tasks: int | None = None, category: str = "c") -> list[StateResult]:
    """One run's units: state i passes passes[i] of `attempts`; states spread over `tasks` task instances (one a
    state by default)."""
    tasks = tasks or len(passes)
    return [StateResult(f"t{i % tasks}", f"t{i % tasks}-s{i}", c, attempts, category) for i, c in enumerate(passes)]


def _arm(rates: list[float], states: int = 40, attempts: int = 4) -> dict[int, list[StateResult]]:
    """Seeds whose runs pass round(rate * attempts) of every state's attempts."""
    return {s: _seed([round(r * attempts)] * states, attempts) for s, r in enumerate(rates)}


def test_an_arms_rate_is_the_mean_of_its_seeds_each_seed_pooling_its_attempts():
    # seed 0: 2 states, 1/4 and 3/4 -> 0.5; seed 1: 1 state 4/4 and one 0/12 -> 4/16 = 0.25. Seeds weigh alike.
    a = {0: [StateResult("t", "s1", 1, 4), StateResult("t", "s2", 3, 4)],
         1: [StateResult("t", "s1", 4, 4), StateResult("t", "s2", 0, 12)]}
    b = {0: [StateResult("t", "s1", 0, 4), StateResult("t", "s2", 0, 4)]}
    assert h.seed_rates(a) == {0: 0.5, 1: 0.25}
    r = h.hierarchical_bootstrap(a, b, resamples=50)
    assert r.rate_a == pytest.approx(0.375) and r.rate_b == 0.0 and r.difference == pytest.approx(0.375)
    assert r.seeds == (2, 1) and r.tasks == 1 and r.states == 2 and r.welch_p is None  # one seed in B: no t-test


def test_records_and_evaluation_files_become_units():
    records = [{"seed": 1, "task": "t", "state": "t-t2", "passed": True, "category": "wrong_path"},
               {"seed": 1, "task": "t", "state": "t-t2", "passed": False, "category": "wrong_path"},
               {"seed": 1, "task": "t", "state": "t-t2", "passed": True, "infra_error": "verifier timed out"},
               {"seed": 0, "task": "u", "state": "u-t1", "passed": False}]
    assert h.arm_from_records(records) == {0: [StateResult("u", "u-t1", 0, 1, None)],
                                           1: [StateResult("t", "t-t2", 1, 2, "wrong_path")]}
    ev = {"recovery": {"per_state": {"env-setup-c03-s2-t4": ["other_error", 3, 4], "find-log-c01-t2": ["wrong_path",
                                                                                                        0, 4]}},
          "heldout": {"per_task": {"csv-totals-c00": [2, 2]}}}
    assert h.seed_results(ev) == [StateResult("env-setup-c03", "env-setup-c03-s2-t4", 3, 4, "other_error"),
                                  StateResult("find-log-c01", "find-log-c01-t2", 0, 4, "wrong_path")]
    assert h.seed_results(ev, "heldout") == [StateResult("csv-totals-c00", "csv-totals-c00", 2, 2)]
    with pytest.raises(ValueError, match="recovery"):
        h.seed_results(ev, "train")
    # an evaluation of several named sets (recipes/compare.py --bench NAME=DIR, --heldout NAME=SPLIT): each by name
    ev["sets"] = {"recovery": {"in": ev["recovery"], "out": {"per_state": {"git-merge-f01-t1": ["other_error", 1, 4]}}},
                  "heldout": {"train": ev["heldout"], "heldout": {"per_task": {"sqlite-f02": [0, 2]}}}}
    assert h.seed_results(ev, "recovery", "in") == h.seed_results(ev)
    assert h.seed_results(ev, "recovery", "out") == [StateResult("git-merge-f01", "git-merge-f01-t1", 1, 4,
                                                                 "other_error")]
    assert h.seed_results(ev, "heldout", "heldout") == [StateResult("sqlite-f02", "sqlite-f02", 0, 2)]
    with pytest.raises(KeyError, match="no heldout set 'fresh' .*train, heldout"):
        h.seed_results(ev, "heldout", "fresh")


def test_the_bootstrap_is_deterministic_given_its_seed():
    a, b = _arm([0.5, 0.75, 0.5]), _arm([0.25, 0.5, 0.5])
    first = h.hierarchical_bootstrap(a, b, resamples=300, seed=3)
    assert h.hierarchical_bootstrap(a, b, resamples=300, seed=3) == first
    assert h.hierarchical_bootstrap(a, b, resamples=300, seed=4).ci95 != first.ci95


def test_a_consistent_lead_is_found_and_equal_arms_are_not():
    a, b = _arm([0.75, 0.75, 0.75, 0.75]), _arm([0.25, 0.25, 0.5, 0.25])
    r = h.hierarchical_bootstrap(a, b, resamples=500)
    assert r.difference == pytest.approx(0.4375)
    assert r.ci95[0] > 0.2 and r.p_value < 0.01 and r.below_zero == 0.0 and r.welch_p < 0.01
    same = h.hierarchical_bootstrap(b, b, resamples=500)
    assert same.difference == 0 and same.ci95[0] < 0 < same.ci95[1] and same.p_value > 0.5


def test_seed_to_seed_spread_widens_the_interval():
    """The same mean lead, from seeds that agree or from seeds that disagree: resampling seeds must see the
    difference (a bootstrap over states with the runs fixed would not)."""
    b = _arm([0.25, 0.25, 0.25, 0.25])
    steady = h.hierarchical_bootstrap(_arm([0.5, 0.5, 0.5, 0.5]), b, resamples=500)
    spread = h.hierarchical_bootstrap(_arm([0.0, 1.0, 0.25, 0.75]), b, resamples=500)
    assert steady.difference == spread.difference == 0.25
    assert spread.ci95[1] - spread.ci95[0] > 3 * (steady.ci95[1] - steady.ci95[0])
    assert spread.ci95[0] < 0 < steady.ci95[0]


def test_a_states_attempts_are_drawn_again():
    """Every state alike in both arms, one run each: only the attempts' own chance (2 of 4 could as well have been
    1 or 3) is left to make the interval wide."""
    a = {0: _seed([2] * 10)}
    r = h.hierarchical_bootstrap(a, a, resamples=500)
    assert r.difference == 0 and r.ci95[0] < -0.1 and r.ci95[1] > 0.1


def test_many_states_of_one_task_instance_count_as_one_cluster():
    """A leads on 20 states; one task instance holding them all is one draw of luck, twenty instances are twenty:
    the interval of the first must be far wider (the earlier benchmark's 164 of 172 states from 12 instances)."""
    lead, rest = [4] * 20, [2] * 20
    one_task = {0: _seed(lead, tasks=1) + [StateResult(f"o{i}", f"o{i}-s", 2, 4) for i in range(20)]}
    many = {0: _seed(lead) + [StateResult(f"o{i}", f"o{i}-s", 2, 4) for i in range(20)]}
    base_one = {0: _seed(rest, tasks=1) + [StateResult(f"o{i}", f"o{i}-s", 2, 4) for i in range(20)]}
    base_many = {0: _seed(rest) + [StateResult(f"o{i}", f"o{i}-s", 2, 4) for i in range(20)]}
    clustered = h.hierarchical_bootstrap(one_task, base_one, resamples=500)
    spread = h.hierarchical_bootstrap(many, base_many, resamples=500)
    assert clustered.difference == spread.difference == 0.25
    assert clustered.tasks == 21 and spread.tasks == 40
    assert clustered.ci95[1] - clustered.ci95[0] > 2 * (spread.ci95[1] - spread.ci95[0])


def test_pairing_on_the_shared_states_removes_their_difficulty_from_the_difference():
    """Tasks that every run passes or fails alike: drawn once for both arms (paired) they cancel; drawn anew for
    every seed (nested) they count as noise."""
    easy_hard = [4] * 10 + [0] * 10
    a = {s: _seed(easy_hard + [4] * 4) for s in range(3)}
    b = {s: _seed(easy_hard + [2] * 4) for s in range(3)}
    paired = h.hierarchical_bootstrap(a, b, resamples=400)
    nested = h.hierarchical_bootstrap(a, b, resamples=400, paired=False)
    assert paired.difference == nested.difference
    assert paired.paired and not nested.paired
    assert nested.ci95[1] - nested.ci95[0] > 2 * (paired.ci95[1] - paired.ci95[0])


def test_categories_with_enough_states_are_compared_each_on_their_own():
    a = {s: _seed([4] * 25, category="other_error") + _seed([0] * 5, category="wrong_path") for s in range(2)}
    for units in a.values():
        for i, u in enumerate(units[25:]):  # distinct state ids for the second category
            units[25 + i] = StateResult(u.task + "w", u.state + "w", u.passed, u.attempts, u.category)
    b = {s: [StateResult(u.task, u.state, 2, 4, u.category) for u in units] for s, units in a.items()}
    out = h.by_category(a, b, min_states=20, resamples=100)
    assert list(out) == ["other_error"]
    assert out["other_error"].difference == 0.5 and out["other_error"].states == 25
    assert h.by_category(a, b, min_states=5, resamples=100)["wrong_path"].difference == -0.5


def test_every_seed_is_listed_with_its_own_rates():
    a, b = _arm([0.5, 0.75, 1.0]), _arm([0.25, 0.25])
    rows = h.seed_differences(a, b)
    assert [(r.seed, r.rate_a, r.rate_b, r.difference) for r in rows] == [
        (0, 0.5, 0.25, 0.25), (1, 0.75, 0.25, 0.5), (2, 1.0, None, None)]


def test_non_inferiority_compares_the_lower_bound_with_the_margin():
    a, b = _arm([0.75, 0.75, 0.75], states=60), _arm([0.75, 0.75, 1.0], states=60)  # A about 8 points below
    wide = h.non_inferiority(a, b, margin=0.5, resamples=300)
    tight = h.non_inferiority(a, b, margin=0.02, resamples=300)
    assert wide.lower == wide.comparison.ci95[0] and -0.5 < wide.lower < 0
    assert wide.noninferior and not tight.noninferior
    # three seeds: Welch's bound (t with 2 df) is far below the bootstrap's, and a margin between the two fails
    assert wide.welch_lower < wide.lower - 0.1
    between = h.non_inferiority(a, b, margin=(-wide.lower - wide.welch_lower) / 2, resamples=300)
    assert between.lower > -between.margin and not between.noninferior
    with pytest.raises(ValueError, match="margin"):
        h.non_inferiority(a, b, margin=-0.1)


def test_t_p_values_match_the_tables_and_the_density():
    # two-sided 5% critical values of Student's t
    for t, df in ((12.706, 1), (2.776, 4), (2.042, 30), (1.960, 1e6)):
        assert h.t_two_sided_p(t, df) == pytest.approx(0.05, abs=2e-4)
    # against the density integrated numerically, at a fractional df (Welch's)
    df, t = 3.4, 2.3
    x = np.linspace(t, 400, 400_001)
    dens = math.gamma((df + 1) / 2) / (math.sqrt(df * math.pi) * math.gamma(df / 2)) * (1 + x ** 2 / df) ** (
        -(df + 1) / 2)
    assert float(h.t_two_sided_p(t, df)) == pytest.approx(2 * np.trapezoid(dens, x), abs=1e-4)
    # Welch with equal sizes and variances is the pooled t: [1,2,3] vs [4,5,6] -> t = -3.674, df 4
    diff, p, dof = h.welch_test([1, 2, 3], [4, 5, 6])
    assert diff == -3 and dof == pytest.approx(4) and p == pytest.approx(float(h.t_two_sided_p(3.6742, 4)), abs=1e-4)
    assert 0.02 < p < 0.025
    low, high = h.welch_interval([1, 2, 3], [4, 5, 6])  # -3 -+ 2.776 x 0.8165
    assert (low, high) == pytest.approx((-3 - 2.7764 * 0.81650, -3 + 2.7764 * 0.81650), abs=1e-3)


def test_the_simulation_reproduces_the_rates_and_the_seed_spread_it_is_given():
    task_sd, state_sd = h._unit_sds(0.45, 0.9)
    unit_sd = math.hypot(task_sd, state_sd)
    mu, sigma = h._seed_logit_sd(0.4, 0.08, unit_sd)
    rng = np.random.default_rng(0)
    seeds = rng.normal(0, sigma, size=(4000, 1))
    units = rng.normal(0, unit_sd, size=(1, 4000))
    seed_rates = h._expit(mu + seeds + units).mean(axis=1)
    assert seed_rates.mean() == pytest.approx(0.4, abs=0.01)
    assert seed_rates.std() == pytest.approx(0.08, abs=0.005)
    with pytest.raises(ValueError, match="not reachable"):
        h._seed_logit_sd(0.9, 0.4, unit_sd)
    with pytest.raises(ValueError, match="task_icc"):
        h._unit_sds(0.6, 0.5)


def test_state_icc_is_read_back_from_the_share_of_states_never_passed():
    rng = np.random.default_rng(1)
    sd = math.sqrt(0.6 / 0.4 * math.pi ** 2 / 3)  # latent ICC 0.6
    p = h._expit(-0.5 + rng.normal(0, sd, size=200_000))
    passes = rng.binomial(4, p)
    icc = h.state_icc_from_zeros(float(passes.mean() / 4), float((passes == 0).mean()), 4)
    assert icc == pytest.approx(0.6, abs=0.02)
    assert h.state_icc_from_zeros(0.5, 0.5 ** 4, 4) == 0.0  # as many zeros as independent attempts give


def test_power_grows_with_the_effect_and_the_seeds_and_falls_with_seed_spread():
    design = dict(tasks=20, states_per_task=3, attempts=4, sims=400)
    assert h.power(0.6, 0.4, 0.03, seeds=5, **design) > 0.95
    assert h.power(0.4, 0.4, 0.03, seeds=5, **design) < 0.06  # one-sided at 2.5%: false positives rare
    assert h.power(0.5, 0.4, 0.15, seeds=5, **design) < h.power(0.5, 0.4, 0.03, seeds=5, **design) - 0.3
    assert h.power(0.5, 0.4, 0.05, seeds=10, **design) > h.power(0.5, 0.4, 0.05, seeds=3, **design) + 0.3
    # non-inferiority: no true difference passes a wide margin, seldom a margin of 0
    assert h.power(0.9, 0.9, 0.03, seeds=5, margin=0.1, **design) > 0.9
    assert h.power(0.9, 0.9, 0.03, seeds=5, margin=0.0, **design) < 0.06
    with pytest.raises(ValueError, match="two seeds"):
        h.power(0.5, 0.4, 0.05, seeds=1, **design)


def test_power_of_the_bootstrap_rule_is_close_to_the_welch_approximation():
    design = dict(rate_a=0.6, rate_b=0.4, seed_sd=0.05, seeds=3, tasks=10, states_per_task=2, attempts=4, sims=60,
                  resamples=100)
    both, welch = h.power(test="both", **design), h.power(test="welch", **design)
    assert both <= welch and welch - both < 0.15
    with pytest.raises(ValueError, match="welch"):
        h.power(test="t", **design)


def test_seeds_needed_is_the_fewest_that_reach_the_target():
    design = dict(rate_a=0.5, rate_b=0.4, seed_sd=0.05, tasks=20, states_per_task=3, attempts=4, sims=400)
    n = h.seeds_needed(target=0.8, max_seeds=15, **design)
    assert n is not None and 3 <= n <= 15
    assert h.power(seeds=n, **design) >= 0.8 > h.power(seeds=n - 1, **design)
    assert h.seeds_needed(target=0.8, max_seeds=3, **design) is None
