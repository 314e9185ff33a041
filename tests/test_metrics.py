"""Intervals in the evaluation and recovery reports: what a reader compares two models with."""

from __future__ import annotations

import pytest

from reterm.evaluation import recovery_bench as rb
from reterm.evaluation.metrics import summarize_eval, task_interval, wilson_interval


def _rows(passes_per_task: list[list[bool]]) -> list[dict]:
    return [{"task_id": f"t{i}", "passed": p, "family": "f", "category": "c"}
            for i, samples in enumerate(passes_per_task) for p in samples]


def test_one_sample_a_task_gives_the_wilson_interval_over_tasks():
    report = summarize_eval(_rows([[True]] * 3 + [[False]] * 17), k=1)["overall"]
    low, high = wilson_interval(3, 20)
    assert report["pass@1"] == 0.15
    assert report["pass@1_ci95"] == [round(low, 4), round(high, 4)]
    assert report["pass@1_ci95"][0] < 0.15 < report["pass@1_ci95"][1]


def test_all_failed_still_has_an_upper_bound():
    low, high = summarize_eval(_rows([[False]] * 20), k=1)["overall"]["pass@1_ci95"]
    assert low == 0.0 and 0.1 < high < 0.2  # 0/20 does not mean the rate is 0


def test_several_samples_a_task_count_as_one_when_tasks_are_alike_inside():
    # tasks either always or never pass: 4 samples a task carry no more information than one, so the interval
    # must be the one for 10 tasks, not as narrow as for 40 independent samples
    clustered = task_interval([(4, 4)] * 5 + [(0, 4)] * 5)
    assert clustered == pytest.approx(wilson_interval(5, 10), abs=1e-4)
    pooled = wilson_interval(20, 40)
    assert clustered[1] - clustered[0] > pooled[1] - pooled[0]
    # samples that vary as much inside a task as between tasks are independent: the interval over all samples
    mixed = task_interval([(2, 4)] * 10)
    assert mixed == pytest.approx(wilson_interval(20, 40), abs=1e-4)


def test_an_interval_never_collapses_when_every_sample_scores_alike():
    """The percentile bootstrap over tasks printed [0.000, 0.000] for 0 of 16 trials (4 tasks x 4): a claim of
    certainty from 16 samples. Every sample alike shows no clustering, so the Wilson interval over them."""
    for passes in (0, 4):
        rows = _rows([[bool(passes)] * 4] * 4)
        low, high = summarize_eval(rows, k=4)["overall"]["pass@1_ci95"]
        assert high - low > 0.15
        assert [low, high] == pytest.approx(list(wilson_interval(passes * 4, 16)), abs=1e-4)


def test_no_scored_task_has_no_interval():
    assert task_interval([]) is None
    rows = [{"task_id": "t", "passed": False, "infra_error": "verifier timed out", "family": "f", "category": "c"}]
    assert summarize_eval(rows, k=1)["overall"]["pass@1_ci95"] is None


def test_recovery_report_gives_intervals_per_category_and_overall():
    attempts = [{"state": f"s{i // 2}", "attempt": i % 2, "category": "wrong_path", "passed": i < 3,
                 "infra_error": None} for i in range(10)]
    attempts.append({"state": "s9", "attempt": 0, "category": "timeout", "passed": False, "infra_error": "boom"})
    report = rb.recovery_report(attempts, 2)
    row = report["by_category"]["wrong_path"]
    assert row["recovery_rate"] == 0.3 and row["ci95"][0] < 0.3 < row["ci95"][1]
    assert report["by_category"]["timeout"]["ci95"] is None  # nothing scored
    assert report["overall"]["recovered"] == 3 and report["overall"]["recovery_rate"] == pytest.approx(0.3)


def test_recovery_interval_counts_a_state_whose_attempts_agree_once():
    """Two attempts from one state that always agree are one observation: the interval is the one over states."""
    attempts = [{"state": f"s{i // 2}", "attempt": i % 2, "category": "wrong_path", "passed": i < 6,
                 "infra_error": None} for i in range(20)]
    ci = rb.recovery_report(attempts, 2)["overall"]["ci95"]
    assert ci == pytest.approx(list(wilson_interval(3, 10)), abs=1e-4)
    assert ci[1] - ci[0] > wilson_interval(6, 20)[1] - wilson_interval(6, 20)[0]


def test_wilson_bounds_are_exact_at_zero_and_all_successes():
    """A chart draws the interval as rate - low and high - rate, which must not be negative: at 0 of n the low bound is
    0 and at n of n the high bound is 1 exactly, not a float a hair away (0 of 108 gave 3.5e-18)."""
    for n in range(1, 300):
        low, high = wilson_interval(0, n)
        assert low == 0.0 and 0.0 < high < 1.0
        low, high = wilson_interval(n, n)
        assert high == 1.0 and 0.0 < low < 1.0
        for k in range(n + 1):
            low, high = wilson_interval(k, n)
            assert low <= k / n <= high


def test_paired_comparison_is_mcnemar_with_one_sample_a_unit():
    from reterm.evaluation.metrics import paired_comparison

    # 10 units only A solves, 2 only B solves, 8 both: McNemar's exact two-sided p over 12 discordant pairs
    a = {f"u{i}": (1 if i < 10 or i >= 12 else 0, 1) for i in range(20)}
    b = {f"u{i}": (1 if i >= 10 else 0, 1) for i in range(20)}
    r = paired_comparison(a, b)
    from math import comb
    exact = 2 * sum(comb(12, j) for j in range(0, 3)) / 2 ** 12
    assert r["units"] == 20 and r["a_better"] == 10 and r["b_better"] == 2
    assert r["difference"] == 0.4 and abs(r["p_value"] - exact) < 1e-4
    assert r["ci95"][0] > 0 and r["ci95"][1] <= 0.7
    # the same counts unpaired would be 10/20 vs 10/20: pairing is what sees it; identical methods give p = 1
    same = paired_comparison(a, a)
    assert same["difference"] == 0 and same["p_value"] == 1.0
    # units only one method was scored on are left out
    assert paired_comparison({"x": (1, 2)}, {"y": (0, 2)})["units"] == 0


def test_paired_comparison_with_many_units_uses_random_sign_flips():
    from reterm.evaluation.metrics import paired_comparison

    a = {str(i): (3, 4) for i in range(40)}
    b = {str(i): (2, 4) if i % 4 else (4, 4) for i in range(40)}
    r = paired_comparison(a, b, resamples=2000)
    assert r["a_better"] == 30 and r["b_better"] == 10 and r["difference"] == 0.125
    assert 0 < r["p_value"] < 0.05


def test_paired_power_grows_with_the_difference_and_the_attempts():
    from reterm.evaluation.metrics import paired_power

    rates = [0.2, 0.5, 0.8] * 20
    small, large = paired_power(rates, 4, 0.03, trials=100), paired_power(rates, 4, 0.25, trials=100)
    assert small < 0.5 < large
    assert paired_power(rates, 16, 0.08, trials=100) > paired_power(rates, 2, 0.08, trials=100)
    assert paired_power(rates, 4, 0.0, trials=200) < 0.12  # no difference: false positives near alpha
