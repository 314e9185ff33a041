"""The main job's report from eval.json / recovery.json files: held-out families with family-clustered intervals
(compositional and novel apart), differences with the family as the unit, and each benchmark's composition."""

from __future__ import annotations

import json

from reterm.evaluation.report import collect, composition, contrasts, model_stages, write_report

GROUPS = {"comp-a": "compositional", "comp-b": "compositional", "nov-a": "novel", "nov-b": "novel"}


def _eval(run, stage, passes: dict[str, int]):
    """passes: task id -> 1/0, the family being the id less its last part."""
    by_task = {t: {"n": 1, "c": c, "family": t.rsplit("-", 1)[0], "category": "x"} for t, c in passes.items()}
    (run / stage).mkdir(parents=True)
    (run / stage / "eval.json").write_text(json.dumps({"by_task": by_task}))


def _recovery(run, stage, passed: dict[str, list[int]]):
    """passed: state id (family-task-tN) -> per-attempt 1/0."""
    attempts = [{"state": s, "family": s.split("-t")[0].rsplit("-", 1)[0], "category": f"cat{int(s.split('-t')[0][-1]) % 2}", "attempt": i,
                 "passed": bool(p), "infra_error": None} for s, ps in passed.items() for i, p in enumerate(ps)]
    (run / stage).mkdir(parents=True)
    (run / stage / "recovery.json").write_text(json.dumps({"attempts": attempts, "by_category": {}, "overall": {}}))


def _world(tmp_path):
    tasks = [f"{f}-{i:02d}" for f in GROUPS for i in range(3)]
    _eval(tmp_path, "ev_base", {t: 0 for t in tasks})
    _eval(tmp_path, "ev_sft", {t: int(t.startswith("comp")) for t in tasks})
    _recovery(tmp_path, "rec_base", {f"{t}-t1": [0, 0] for t in tasks})
    _recovery(tmp_path, "rec_sft", {f"{t}-t1": [1, int(t.startswith("nov"))] for t in tasks})
    return {"base": {"heldout_families": "ev_base", "recovery_heldout_families": "rec_base"},
            "sft": {"heldout_families": "ev_sft", "recovery_heldout_families": "rec_sft"}}


def test_held_out_families_split_compositional_from_novel(tmp_path):
    rows = collect(_world(tmp_path), tmp_path, GROUPS)
    fams = rows["heldout_families"]
    assert fams["sft"]["compositional"][:2] == (6, 6) and fams["sft"]["novel"][:2] == (0, 6)
    assert fams["sft"]["all"][:2] == (6, 12) and fams["base"]["all"][:2] == (0, 12)
    rec = rows["recovery_heldout_families"]["sft"]
    assert rec["all"][:2] == (18, 24)
    lo, hi = fams["sft"]["all"][2]
    # four families that either always or never pass: the interval is that of 4 samples, not of 12
    assert hi - lo > 0.5


def test_differences_take_the_family_as_the_unit(tmp_path):
    text = contrasts(_world(tmp_path), tmp_path)
    row = next(line for line in text.splitlines() if "held-out families pass@1" in line)
    assert "| sft - base | 4 | +0.500" in row


def test_composition_counts_states_per_family_and_category(tmp_path):
    text = composition(_world(tmp_path), tmp_path)
    assert "24 states, 4 families, 2 categories" not in text  # one state a task: 12 states
    assert "12 states, 4 families, 2 categories" in text
    assert "| comp-a |" in text and "25%" in text


def test_the_older_two_stage_form_still_reads(tmp_path):
    assert model_stages(["a", "b"]) == {"heldout_instances": "a", "recovery": "b"}


def test_write_report_writes_markdown_and_chart(tmp_path):
    models = _world(tmp_path)
    text, paths = write_report(models, tmp_path, tmp_path / "out", {}, notes="Instances: 3 of each family.",
                               groups=GROUPS)
    md = paths[0].read_text()
    assert "Instances: 3 of each family." in md and "## Differences, the family as the unit" in md
    assert "| held-out families pass@1 | compositional |" in text
    assert paths[1].stat().st_size > 10_000
