"""The confirmatory analysis (reterm/evaluation/confirm_report.py) on comparison folders written here as
recipes/compare.py writes them (results.json, the start's evaluation): the design's decision rules, what is missing
while runs are still going, and the numbers of `reterm.evaluation.hierarchical` unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reterm.evaluation import confirm_report as cr
from reterm.evaluation import hierarchical as h

FORKED, PLAIN_DONE, PLAIN = cr.FORKED, cr.PLAIN_DONE, cr.PLAIN
BOOT = {"resamples": 200}


def _ev(rec: float, pass1: float) -> dict:
    """An evaluation of the four sets: `in` and `out` 40 frozen states (10 task instances of 10 families, 4 states
    each, 4 attempts), `train` and `heldout` 40 tasks (2 samples). The first `rate` share of units pass every
    attempt, the rest none."""
    def states(prefix: str, rate: float) -> dict:
        units = [f"{prefix}{t}-f00-s{j}-t1" for t in range(10) for j in range(4)]
        return {u: ["syntax_error" if i % 2 else "wrong_path", 4 if i < round(rate * 40) else 0, 4]
                for i, u in enumerate(units)}

    def tasks(prefix: str, rate: float) -> dict:
        return {f"{prefix}{t}-f{i:02d}": [2 if 4 * t + i < round(rate * 40) else 0, 2]
                for t in range(10) for i in range(4)}

    sets = {"recovery": {"in": {"per_state": states("fam", rec), "declared_done": [3, 4]},
                         "out": {"per_state": states("held", rec), "declared_done": [1, 4]}},
            "heldout": {"train": {"per_task": tasks("fam", pass1), "declared_done": [2, 2]},
                        "heldout": {"per_task": tasks("held", pass1), "declared_done": [0, 2]}}}
    return {"model": "m", "recovery": sets["recovery"]["in"], "heldout": sets["heldout"]["train"], "sets": sets}


def _folder(tmp: Path, rates: dict[str, list[tuple[float, float]]], seeds=(0, 1, 2), drop=()) -> Path:
    """A comparison folder: each method's seeds at (recovery, pass@1) rates, all of them planned; runs in `drop`
    (`method s<seed>`) are planned but not evaluated at the last step."""
    start = _ev(0.25, 0.9)
    runs = {}
    for method, per_seed in rates.items():
        for seed, (rec, p) in zip(seeds, per_seed):
            evals = {"0": start} if f"{method} s{seed}" in drop else {"0": start, "100": _ev(rec, p)}
            runs[f"{method}-s{seed}"] = {"method": method, "arm": method, "lr": None, "seed": seed, "evals": evals,
                                         "training": {"sampled_tokens_mean": 3000.0, "train_wall_s": 6000.0},
                                         "tokens_at": {"100": 3.1e5}}
    tmp.mkdir(parents=True, exist_ok=True)
    plan = {"steps": 100, "methods": list(rates), "seeds": list(seeds)}
    (tmp / "results.json").write_text(json.dumps({"plan": plan, "runs": runs}))
    (tmp / "eval" / "sft").mkdir(parents=True, exist_ok=True)
    (tmp / "eval" / "sft" / "step-0.json").write_text(json.dumps(start))
    return tmp


GAIN = {PLAIN_DONE: [(0.30, 0.900), (0.35, 0.900), (0.25, 0.925)],
        FORKED: [(0.60, 0.900), (0.65, 0.925), (0.55, 0.900)],
        PLAIN: [(0.30, 0.900), (0.35, 0.925), (0.30, 0.900)]}


def _row(res: dict, a: str, b: str, key: str) -> dict:
    return next(c for c in res["contrasts"] if (c["a"], c["b"]) == (a, b))["endpoints"][key]


def test_a_clear_gain_with_pass_at_1_held_is_credited_and_the_numbers_are_the_bootstraps(tmp_path):
    run = _folder(tmp_path / "run", GAIN)
    paths = cr.write_report(run, tmp_path / "out", margin=0.05, **BOOT)
    assert [p.name for p in paths] == ["analysis.md", "analysis.json", "analysis.png"]
    assert paths[2].read_bytes()[:4] == b"\x89PNG"
    res = json.loads(paths[1].read_text())
    assert res["complete"] and not res["pending"] and res["step"] == 100
    e1 = _row(res, FORKED, PLAIN_DONE, "E1")
    assert e1["result"] == "superior" and e1["comparison"]["ci95"][0] > 0 and e1["comparison"]["welch_ci95"][0] > 0
    # the endpoint is hierarchical_bootstrap on the named set's units, seeds as the unit, unchanged
    runs = cr.load_runs(run)
    ep = cr.ENDPOINTS[0]
    direct = h.hierarchical_bootstrap(cr.arm(runs, FORKED, ep), cr.arm(runs, PLAIN_DONE, ep), seed=0, **BOOT)
    assert e1["comparison"]["difference"] == pytest.approx(0.3) == pytest.approx(direct.difference)
    assert e1["comparison"]["ci95"] == list(direct.ci95) and e1["comparison"]["seeds"] == [3, 3]
    assert _row(res, FORKED, PLAIN_DONE, "E2")["result"] == "non-inferior"
    assert res["rules"]["1. forking"].startswith("forking is credited")
    assert res["rules"]["2. transfer"].startswith("transfer is claimed")
    assert res["rules"]["3. +done default"].startswith("`--penalty_undeclared_pass 1` becomes the default")
    md = paths[0].read_text()
    assert md.startswith("# The confirmatory comparison") and "**Final**: every planned run (9 of 9)" in md
    assert f"## {FORKED} minus {PLAIN_DONE} (primary)" in md and f"## {PLAIN_DONE} minus {PLAIN} (secondary)" in md
    # each seed's rate, the benchmarks' sizes against the design's least size, how the passes ended, the cost
    assert "| E1 | 1 | 0.350 | 0.650 | 0.350 | +0.300 |" in md
    assert "| E1 | `in` | 40 states | 10 | 10 | 0.250 | **not met**" in md
    assert "recovery `in` 9/12" in md and "| 3,000 | 310,000 | 100 min |" in md
    assert set(res["categories"]["E1c"]) == {"syntax_error", "wrong_path"}  # 20 states each
    assert set(res["nested"]) == {"E1", "E2", "E3", "E4"}


def test_a_pass_at_1_cost_leaves_a_recovery_gain_alone_and_rule_3_names_what_failed(tmp_path):
    rates = {**GAIN, FORKED: [(0.60, 0.70), (0.65, 0.725), (0.55, 0.70)],
             PLAIN_DONE: [(0.05, 0.900), (0.10, 0.900), (0.05, 0.925)]}
    res = cr.analyse(_folder(tmp_path, rates), margin=0.05, **BOOT)
    assert _row(res, FORKED, PLAIN_DONE, "E2")["result"] == "non-inferiority not shown"
    assert res["rules"]["1. forking"].startswith("E1 alone: a recovery gain whose pass@1 cost is not ruled out")
    assert res["rules"]["2. transfer"].startswith("no claim: forking is not credited")
    rule3 = res["rules"]["3. +done default"]
    assert rule3.startswith("`--penalty_undeclared_pass 1` stays a flag")
    assert "(b) reterm+done non-inferior to plain on E2" in rule3 and "(c) plain+done minus plain on E1" in rule3
    assert "(a)" not in rule3  # plain+done's pass@1 is plain's
    # a wider margin takes the cost in
    assert cr.analyse(_folder(tmp_path, rates), margin=0.4, **BOOT)["rules"]["1. forking"].startswith(
        "forking is credited")


def test_while_runs_are_missing_the_report_is_interim_and_says_what_is_missing(tmp_path):
    res = cr.analyse(_folder(tmp_path / "a", GAIN, drop=(f"{PLAIN} s2", f"{FORKED} s1")), margin=0.05, **BOOT)
    assert not res["complete"] and res["pending"] == [f"{FORKED} s1", f"{PLAIN} s2"]
    assert _row(res, FORKED, PLAIN_DONE, "E1")["comparison"]["seeds"] == [2, 3]
    assert res["rules"]["1. forking"].endswith("(interim: not every planned run is finished)")
    md = cr.markdown(res)
    assert "**Interim**: 7 of 9 planned runs" in md and f"Missing: {FORKED} s1, {PLAIN} s2." in md
    # one seed an arm: Welch's interval does not exist, and the test is undecided, never passed
    one = cr.analyse(_folder(tmp_path / "b", GAIN, seeds=(0,)), margin=0.05, **BOOT)
    assert _row(one, FORKED, PLAIN_DONE, "E1")["result"] == cr.UNDECIDED
    assert _row(one, FORKED, PLAIN_DONE, "E2")["result"] == cr.UNDECIDED
    assert one["rules"]["1. forking"].startswith("not decidable yet")
    # an arm with no finished run: its contrasts are missing, named
    none = cr.analyse(_folder(tmp_path / "c", GAIN, drop=tuple(f"{PLAIN_DONE} s{s}" for s in range(3))),
                      margin=0.05, **BOOT)
    assert _row(none, FORKED, PLAIN_DONE, "E1")["missing"] == f"no finished run of {PLAIN_DONE} with recovery `in`"
    assert _row(none, FORKED, PLAIN, "E1")["result"] == "superior"
    assert "missing: no finished run of plain+done" in cr.markdown(none)
    # a run evaluated without one of the sets (no --bench out=...): said, and that seed left out of E3 only
    run = _folder(tmp_path / "d", GAIN)
    results = json.loads((run / "results.json").read_text())
    del results["runs"][f"{PLAIN}-s0"]["evals"]["100"]["sets"]["recovery"]["out"]
    (run / "results.json").write_text(json.dumps(results))
    res = cr.analyse(run, margin=0.05, **BOOT)
    assert not res["complete"] and res["lacking"] == [f"{PLAIN} s0 has no recovery `out` (E3)"]
    assert _row(res, FORKED, PLAIN, "E3")["comparison"]["seeds"] == [3, 2]
    assert _row(res, FORKED, PLAIN, "E1")["comparison"]["seeds"] == [3, 3]


def test_the_command_names_a_missing_or_ambiguous_folder(tmp_path, capsys):
    assert cr.main([str(tmp_path / "none"), "--margin", "0.05"]) == 2
    assert f"{tmp_path / 'none' / 'results.json'}: no such file" in capsys.readouterr().err
    run = _folder(tmp_path / "run", GAIN)
    results = json.loads((run / "results.json").read_text())
    results["runs"]["plain-lr3e-05-s0"] = {**results["runs"]["plain-s0"]}  # a second rate of one method and seed
    (run / "results.json").write_text(json.dumps(results))
    assert cr.main([str(run), "--margin", "0.05", "--resamples", "50"]) == 2
    assert "method plain has two runs of seed 0" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        cr.main([str(run)])  # the margin is the design's to give


def test_a_malformed_folder_or_out_is_named_not_a_traceback(tmp_path, capsys):
    """A folder that is a file, a results.json that is not a comparison's (a list, a run without its method), a
    start evaluation that does not read, and an --out that is a file: each refused naming it (exit 2)."""
    afile = tmp_path / "afile"
    afile.write_text("x")
    assert cr.main([str(afile), "--margin", "0.05"]) == 2
    assert f"{afile} is a file" in capsys.readouterr().err
    run = _folder(tmp_path / "run", GAIN)
    good = (run / "results.json").read_text()
    for bad in ("[1, 2]", json.dumps({"runs": {"x": {"seed": 0}}})):
        (run / "results.json").write_text(bad)
        assert cr.main([str(run), "--margin", "0.05"]) == 2
        assert "not a comparison's results" in capsys.readouterr().err
    (run / "results.json").write_text(good)
    (run / "eval" / "sft").mkdir(parents=True, exist_ok=True)
    (run / "eval" / "sft" / "step-0.json").write_text("{")
    assert cr.main([str(run), "--margin", "0.05", "--resamples", "50"]) == 2
    assert "step-0.json: not valid JSON" in capsys.readouterr().err
    with pytest.raises(SystemExit) as stopped:
        cr.main([str(run), "--margin", "0.05", "--out", str(afile)])
    err = capsys.readouterr().err
    assert stopped.value.code == 2 and "is a file" in err and "Traceback" not in err
