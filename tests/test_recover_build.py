"""data_pipeline.recover (oracle teacher, forks of rebuilt failure states) and data_pipeline.build."""

from __future__ import annotations

import json

import pytest

from conftest import get_backend
from data_pipeline import build as build_mod
from data_pipeline.recover import recover_state, run as recover_run
from data_pipeline.synthesize import run as synth_run
from reterm.failures.state import load_jsonl
from reterm import suites


@pytest.fixture(scope="module")
def states(tmp_path_factory):
    out = tmp_path_factory.mktemp("pipe") / "synth.jsonl"
    tasks = [t for t in suites.load("basic", "train") if t.id.endswith("-00")]
    synth_run(tasks, get_backend("local"), out, variants=1)
    return out


def test_oracle_recoveries_are_verified_and_only_recovery_turns_are_trainable(states):
    state = load_jsonl(states)[0]
    recs = recover_state(state, get_backend("local"), k=2, teacher="oracle")
    assert len(recs) == 2 and all(r["passed"] and r["reward"] == 1.0 for r in recs)
    r = recs[0]
    n_hist = len(state.history)
    assert r["messages"][:n_hist] == state.history
    assert r["trainable"] == [m["role"] == "assistant" and i >= n_hist for i, m in enumerate(r["messages"])]
    first = r["messages"][n_hist]["content"]
    assert first.startswith("The last step failed") and "```bash" in first
    assert r["messages"][-1]["content"] == "TASK_COMPLETE"


def test_build_dedupes_splits_by_family_and_writes_a_card(states, tmp_path):
    attempts = tmp_path / "recover.jsonl"
    summary = recover_run(states, attempts, get_backend("local"), k=2)
    assert summary["kept"] == summary["attempts"] and summary["infra_errors"] == 0
    out = tmp_path / "ds"
    built = build_mod.build(attempts, out)
    ds = build_mod.load_dataset_dir(out)
    # the oracle is deterministic: its two attempts per state are the same conversation and are kept once
    assert built["rows"] == len(ds["train"]) + len(ds["validation"]) <= summary["kept"] // 2
    assert set(ds["train"]["family"]).isdisjoint(set(ds["validation"]["family"]))
    assert set(build_mod.COLUMNS) <= set(ds["train"].column_names)
    assert all(any(t) for t in ds["train"]["trainable"])
    text = (out / "README.md").read_text()
    assert "| train |" in text and "| error_category | rows |" in text
    assert not list(tmp_path.glob("ds.tmp-*"))  # nothing half-written left beside it


def test_push_needs_a_token_and_uploads_one_folder(tmp_path, monkeypatch, states):
    """The Hub cannot be reached here: the push is checked against a recording stand-in for HfApi (what would be
    sent, in how many commits), and the missing-token path for real."""
    attempts = tmp_path / "recover.jsonl"
    recover_run(states, attempts, get_backend("local"), k=1)
    out = tmp_path / "ds"
    build_mod.build(attempts, out)
    monkeypatch.delenv("HF_TOKEN", raising=False)
    with pytest.raises(PermissionError, match="HF_TOKEN"):
        build_mod.push(out, "me/data")

    class Recorder:
        calls: list = []

        def create_repo(self, repo, **kw):
            self.calls.append(("create_repo", repo, kw))

        def upload_folder(self, **kw):
            self.calls.append(("upload_folder", kw["repo_id"], sorted(p.name for p in
                                                                     __import__("pathlib").Path(
                                                                         kw["folder_path"]).rglob("*"))))

    rec = Recorder()
    build_mod.push(out, "me/data", token="hf_x", api=rec)
    assert [c[0] for c in rec.calls] == ["create_repo", "upload_folder"]
    assert "README.md" in rec.calls[1][2] and any(n.startswith("train-") for n in rec.calls[1][2])


def test_build_without_verified_rows_is_a_clear_error(tmp_path):
    p = tmp_path / "a.jsonl"
    p.write_text(json.dumps({"key": "x", "state_key": "s", "passed": False}) + "\n")
    assert build_mod.main(["--attempts", str(p), "--out", str(tmp_path / "o")]) == 2
    assert not (tmp_path / "o").exists()
