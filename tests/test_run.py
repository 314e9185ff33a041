"""`reterm run` end to end on the bundled suite: oracle passes, nop fails, summaries and logs as documented. (That
every bundled task's oracle passes and its nop and shortcuts fail is checked, on every task, by
tests/test_suite_world.py; here the command itself is under test, on one instance of every family.)"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import require_docker
from reterm import suites


def _run(tmp_path, *args):
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "reterm.cli", "run", *args, "-o", str(out)], capture_output=True,
                       text=True, timeout=1200)
    assert r.returncode == 0, r.stderr[-3000:]
    rows = [json.loads(line) for line in (out / "results.jsonl").read_text().splitlines()]
    summary = json.loads((out / "summary.json").read_text())
    return rows, summary


def _one_per_family() -> list[str]:
    seen: dict[str, str] = {}
    for t in suites.load("basic"):
        seen.setdefault(t.family, str(t.path))
    return list(seen.values())


def _one_per_kind() -> list[str]:
    """One task of each kind of work (every task's verifier is checked by tests/test_suite_world.py; this is about
    the command)."""
    from reterm.suites.families import registry

    kind_of = {f.name: f.kind for f in registry()}
    seen: dict[str, str] = {}
    for t in suites.load("basic"):
        seen.setdefault(kind_of.get(t.family, t.family), str(t.path))
    return list(seen.values())


@pytest.mark.slow
@pytest.mark.parametrize("agent, want", [("oracle", 1.0), ("nop", 0.0)])
def test_one_task_of_every_kind_on_local(tmp_path, agent, want):
    tasks = _one_per_kind()
    assert len(tasks) >= 14
    rows, summary = _run(tmp_path, *tasks, "--agent", agent, "--backend", "local", "-j", "2")
    bad = [(r["task_id"], r["reward"], r["infra_error"]) for r in rows if r["reward"] != want]
    assert not bad
    n = len(tasks)
    assert summary == {"n": n, "n_scored": n, "n_passed": n if want else 0, "n_infra_error": 0, "pass_rate": want,
                       "agent": agent, "backend": "local"}
    assert {"build", "setup", "agent", "verify"} <= set(rows[0]["timings"])
    assert rows[0]["category"] and rows[0]["family"]


def test_a_split_runs_by_name(tmp_path):
    rows, summary = _run(tmp_path, "--suite", "basic", "--split", "heldout_compositional", "--agent", "oracle",
                         "--backend", "local", "-j", "2")
    assert summary["n"] == summary["n_passed"] == len(suites.load("basic", "heldout_compositional")) > 20
    assert {r["task_id"] for r in rows} == {t.id for t in suites.load("basic", "heldout_compositional")}


@pytest.mark.parametrize("agent, want", [("oracle", 1.0), ("nop", 0.0)])
def test_bundled_sample_on_docker(tmp_path, agent, want):
    require_docker()
    tasks = _one_per_family()[:12]
    rows, summary = _run(tmp_path, *tasks, "--agent", agent, "--backend", "docker", "-j", "2")
    assert [(r["task_id"], r["reward"]) for r in rows if r["reward"] != want] == []
    assert summary["backend"] == "docker" and summary["n"] == len(tasks)


def test_infra_failures_are_counted_not_scored(tmp_path):
    from conftest import harbor_task

    root = harbor_task(tmp_path / "tasks" / "crashy", test_sh="#!/bin/bash\nexit 2\n")
    rows, summary = _run(tmp_path, str(root), "--backend", "local")
    assert rows[0]["reward"] is None and "no reward written" in rows[0]["infra_error"]
    assert summary["n_infra_error"] == 1 and summary["n_passed"] == 0


def test_existing_results_are_never_overwritten(tmp_path):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "results.jsonl").write_text("{}\n")
    r = subprocess.run([sys.executable, "-m", "reterm.cli", "run", "--suite", "basic", "--backend", "local",
                        "-o", str(tmp_path / "out")], capture_output=True, text=True)
    assert r.returncode == 2 and "already exists" in r.stderr
    assert (tmp_path / "out" / "results.jsonl").read_text() == "{}\n"
