"""data_pipeline.collect: failure states from a policy's own episodes, exported, then recovered by the oracle from
the restored snapshot (local backend). The policy is a ReplayPolicy typing a known failing command: a random model
cannot be made to fail in a chosen way."""

from __future__ import annotations

import json

from conftest import get_backend
from data_pipeline import build as build_mod
from data_pipeline.collect import run as collect_run
from data_pipeline.recover import run as recover_run
from reterm import suites
from reterm.agent.episode import EpisodeConfig
from reterm.agent.policy import ReplayPolicy

REPLIES = ["```bash\ncd /app && touch scout-was-here && cat no-such-file\n```", "TASK_COMPLETE"]


def test_collect_exports_states_that_recover_restores_and_resumes(tmp_path):
    tasks = [t for t in suites.load("basic", "train") if t.id.endswith("-01")][:3]
    out = tmp_path / "collected"
    calls = []
    summary = collect_run(ReplayPolicy(REPLIES), tasks, get_backend("local"), out, EpisodeConfig(max_turns=3),
                          on_done=calls.append)
    assert summary["episodes"] == 3 and summary["passed"] == 0 and summary["states"] >= 3
    assert summary["by_category"].get("wrong_path", 0) >= 3
    states = [json.loads(l) for l in (out / "states.jsonl").read_text().splitlines()]
    real = [s for s in states if not s.get("skipped")]
    assert all((out / "states" / s["key"]).is_dir() and s["source"] == "collected" for s in real)
    # re-running does nothing: every episode is recorded
    again = collect_run(ReplayPolicy(REPLIES), tasks, get_backend("local"), out, EpisodeConfig(max_turns=3),
                        on_done=calls.append)
    assert len(calls) == 3 and again == summary
    # recover restores the exported snapshot and the oracle finishes the task from it
    attempts = tmp_path / "recover.jsonl"
    rec = recover_run(out / "states.jsonl", attempts, get_backend("local"), k=1)
    assert rec["states"] == len(real) and rec["kept"] == len(real) and rec["infra_errors"] == 0
    rows = [json.loads(l) for l in attempts.read_text().splitlines()]
    assert all(r["source"] == "collected" and r["messages"][2]["content"] == REPLIES[0] for r in rows)
    built = build_mod.build(attempts, tmp_path / "ds")
    assert built["rows"] >= 1
