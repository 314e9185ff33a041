"""data_pipeline.recover (oracle teacher, forks of rebuilt failure states) and data_pipeline.build."""

from __future__ import annotations

import json

import pytest

from conftest import get_backend
from data_pipeline import build as build_mod
from data_pipeline.recover import recover_state
from data_pipeline.teacher import restart_of
from reterm import failures
from reterm.failures.state import load_jsonl
from reterm.options import REPLY_TOKENS


@pytest.fixture
def states(oracle_states):
    return oracle_states


def test_oracle_episodes_train_every_correct_turn_and_never_the_mistake(states):
    state = next(s for s in load_jsonl(states) if s.category != failures.OK and s.broken_step >= 1)
    recs = recover_state(state, get_backend("local"), k=2, teacher="oracle")
    assert len(recs) == 2 and all(r["passed"] and r["reward"] == 1.0 and r["teacher_errors"] == 0 for r in recs)
    r = recs[0]
    n_hist = len(state.history)
    assert r["messages"][:n_hist] == state.history
    replies = [i for i, m in enumerate(r["messages"]) if m["role"] == "assistant"]
    history_replies = [i for i in replies if i < n_hist]
    # the clean reference steps before the mistake are trained; the mistake (and what followed it) is not
    assert [r["trainable"][i] for i in history_replies] == [n < state.broken_step for n in
                                                            range(len(history_replies))]
    assert all(r["trainable"][i] for i in replies if i >= n_hist)
    assert not any(r["trainable"][i] for i, m in enumerate(r["messages"]) if m["role"] != "assistant")
    teacher = [r["messages"][i]["content"] for i in replies if i >= n_hist]
    fixed = state.solution_steps[restart_of(state.solution_steps, state.broken_step)]
    assert any(f"```bash\n{fixed}\n```" in t for t in teacher[:2])  # the corrected step, maybe after a look
    assert teacher[-1].endswith("TASK_COMPLETE")


def test_clean_starts_give_clean_episodes(states):
    state = next(s for s in load_jsonl(states) if s.category == failures.OK)
    r = recover_state(state, get_backend("local"), k=1, teacher="oracle")[0]
    replies = [m["content"] for m in r["messages"] if m["role"] == "assistant"]
    assert r["passed"] and replies[:-1] == [f"```bash\n{s}\n```" for s in state.solution_steps]
    assert r["trainable"] == [m["role"] == "assistant" for m in r["messages"]]


@pytest.fixture
def attempts(oracle_attempts):
    return oracle_attempts


def test_build_dedupes_on_trained_text_splits_and_writes_a_card(attempts, tokenizer, tmp_path):
    out = tmp_path / "ds"
    built = build_mod.build(attempts, out, tokenizer=tokenizer, by="family")  # one task per family here
    ds = build_mod.load_dataset_dir(out)
    rows = list(ds["train"]) + list(ds["validation"])
    assert built["rows"] == len(rows) > 0
    texts = [build_mod.trained_text(r["messages"], r["trainable"]) for r in rows]
    assert len(set(texts)) == len(texts)
    assert set(ds["train"]["family"]).isdisjoint(set(ds["validation"]["family"]))
    assert set(build_mod.COLUMNS) <= set(ds["train"].column_names)
    assert all(any(t) for t in ds["train"]["trainable"])
    assert 0 < built["longest_trained_turn_tokens"] <= REPLY_TOKENS < built["longest_row_tokens"]
    text = (out / "README.md").read_text()
    assert "| train |" in text and "| error_category | rows |" in text and "never the injected" in text
    assert not list(tmp_path.glob("ds.tmp-*"))  # nothing half-written left beside it


def test_rows_over_the_reply_budget_are_dropped_and_counted(attempts, tokenizer, tmp_path, capsys):
    full = build_mod.build(attempts, tmp_path / "full", tokenizer=tokenizer)
    budget = full["longest_trained_turn_tokens"] - 1
    built = build_mod.build(attempts, tmp_path / "ds", tokenizer=tokenizer, budget=budget)
    assert built["dropped_over_budget"] > full["dropped_over_budget"]
    assert built["rows"] + built["dropped_over_budget"] == full["rows"] + full["dropped_over_budget"]
    assert built["longest_trained_turn_tokens"] <= budget and built["dropped_over_budget_tasks"]
    assert "rows with a trained turn over the reply budget" in capsys.readouterr().err
    assert f"{built['dropped_over_budget']} rows over it dropped" in (tmp_path / "ds" / "README.md").read_text()


def test_build_refuses_a_trained_turn_over_the_reply_budget(attempts, tokenizer, tmp_path, monkeypatch, capsys):
    """A dataset whose every row has a trained turn over the budget is refused, naming a row, and nothing is written.
    (Here and below, `load_tokenizer` hands `main` the session's tokenizer: the same SmolLM2 tokenizer it would read
    from the bundled GGUF, read once for the whole session.)"""
    with pytest.raises(build_mod.BudgetError, match=r"row \d+ \(.*oracle.*\).* over the reply budget of 5"):
        build_mod.build(attempts, tmp_path / "ds", tokenizer=tokenizer, budget=5)  # every row is over
    assert not (tmp_path / "ds").exists()
    monkeypatch.setattr(build_mod, "REPLY_TOKENS", 5)
    monkeypatch.setattr(build_mod, "load_tokenizer", lambda name: tokenizer)
    assert build_mod.main(["--attempts", str(attempts), "--out", str(tmp_path / "ds")]) == 2
    assert "over the reply budget" in capsys.readouterr().err


def test_a_dataset_without_a_validation_split_says_how_to_get_one(attempts, tokenizer, tmp_path, monkeypatch, capsys):
    """One task a family (as these attempts have) leaves a split by task with no validation rows, which the SFT
    recipe's default evaluation needs: build says so and how to get one; split by family, it has one and says
    nothing."""
    monkeypatch.setattr(build_mod, "load_tokenizer", lambda name: tokenizer)
    assert build_mod.main(["--attempts", str(attempts), "--out", str(tmp_path / "by-task")]) == 0
    err = capsys.readouterr().err
    assert f"{tmp_path / 'by-task'} has no validation split" in err and "--split-by family" in err
    assert not (tmp_path / "by-task" / "data" / "validation-00000-of-00001.parquet").exists()
    assert build_mod.main(["--attempts", str(attempts), "--out", str(tmp_path / "by-family"),
                           "--split-by", "family"]) == 0
    assert "no validation split" not in capsys.readouterr().err
    assert (tmp_path / "by-family" / "data" / "validation-00000-of-00001.parquet").exists()


def test_build_refuses_an_out_it_would_destroy_and_bad_attempts_before_loading_a_tokenizer(attempts, tokenizer,
                                                                                            tmp_path, monkeypatch,
                                                                                            capsys):
    """--out is deleted and written anew only when it is an earlier build: a folder with other files, a file, or a
    path under a file is refused with the folder's contents untouched and nothing left beside it; bad attempts
    (a folder, a line missing what an attempt carries) and out-of-range numbers are named. None of it loads the
    tokenizer (which would convert the model first)."""
    monkeypatch.setattr(build_mod, "load_tokenizer", lambda name: pytest.fail("tokenizer loaded before the checks"))
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "notes.txt").write_text("precious")
    afile = tmp_path / "afile"
    afile.write_text("x")
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps({"key": "k", "state_key": "s", "passed": True}) + "\n")
    cases = [(["--out", str(victim)], "holds files that are not an earlier dataset build (notes.txt)"),
             (["--out", str(afile)], "is a file; build writes a dataset folder"),
             (["--out", str(afile / "ds")], "is a file, not a folder"),
             (["--out", str(tmp_path / "o"), "--validation-fraction", "7"], "--validation-fraction must be"),
             (["--out", str(tmp_path / "o"), "--max-per-group", "-1"], "--max-per-group must be at least 1")]
    for extra, why in cases:
        assert build_mod.main(["--attempts", str(attempts), *extra]) == 2
        assert why in capsys.readouterr().err
    for bad, why in ((tmp_path, "is a directory"), (broken, f"{broken}:1: not an attempt of data_pipeline.recover")):
        assert build_mod.main(["--attempts", str(bad), "--out", str(tmp_path / "o")]) == 2
        assert why in capsys.readouterr().err
    assert (victim / "notes.txt").read_text() == "precious" and sorted(p.name for p in victim.iterdir()) == [
        "notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "broken.jsonl", "victim"]
    monkeypatch.setattr(build_mod, "load_tokenizer", lambda name: tokenizer)
    assert build_mod.main(["--attempts", str(attempts), "--out", str(tmp_path / "o")]) == 0
    assert build_mod.main(["--attempts", str(attempts), "--out", str(tmp_path / "o")]) == 0  # an earlier build


def test_validation_holds_the_last_instances_of_every_family():
    rows = [{"family": f, "task_id": f"{f}-{i:02d}"} for f in ("a", "b") for i in range(5) for _ in range(2)]
    split = build_mod.split_rows(rows, 0.2)
    assert sorted({r["task_id"] for r in split["validation"]}) == ["a-04", "b-04"]
    assert len(split["train"]) == 16


def test_balance_caps_each_family_and_category(attempts):
    rows = build_mod.load_rows(attempts)
    capped = build_mod.balance(rows, 1)
    groups = [(r["family"], r["error_category"]) for r in capped]
    assert len(groups) == len(set(groups)) == len({(r["family"], r["error_category"]) for r in rows})


def test_push_needs_a_token_and_uploads_one_folder(tmp_path, monkeypatch, attempts, tokenizer):
    """The Hub cannot be reached here: the push is checked against a recording stand-in for HfApi (what would be
    sent, in how many commits), and the missing-token path for real."""
    out = tmp_path / "ds"
    build_mod.build(attempts, out, tokenizer=tokenizer)
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


def test_a_repeated_failure_is_recovered_and_neither_repeat_is_trained(states):
    state = next(s for s in load_jsonl(states) if s.category == failures.REPEATED_FAILURE)
    r = recover_state(state, get_backend("local"), k=1, teacher="oracle")[0]
    assert r["passed"] and r["teacher_errors"] == 0
    n_hist = len(state.history)
    wrong = [i for i, m in enumerate(state.history) if m["role"] == "assistant"][-2:]
    assert state.history[wrong[0]] == state.history[wrong[1]]
    assert not r["trainable"][wrong[0]] and not r["trainable"][wrong[1]]
    assert any(r["trainable"][n_hist:])


def test_a_second_rounds_shard_joins_the_dataset_deduplicated_and_weighted(attempts, tokenizer, tmp_path, capsys):
    recs = [json.loads(line) for line in attempts.read_text().splitlines()]
    kept = [r for r in recs if r["passed"] and not r["teacher_errors"] and any(r["trainable"])]
    second = []
    for n, r in enumerate(kept[:4]):
        r = json.loads(json.dumps(r))
        r["key"], r["source"] = f"round2-{n}", "collected"
        if n:  # three new trained texts; the first is a duplicate of a first-round row and is dropped
            last = max(i for i, t in enumerate(r["trainable"]) if t)
            r["messages"][last]["content"] += f"\n(round two, {n})"
        second.append(r)
    shard = tmp_path / "round2.jsonl"
    shard.write_text("".join(json.dumps(r) + "\n" for r in second))
    alone = build_mod.build(attempts, tmp_path / "one", tokenizer=tokenizer, by="family")
    built = build_mod.build([attempts, shard], tmp_path / "two", tokenizer=tokenizer, by="family", weights=[1, 3])
    assert built["rows_per_shard"] == [alone["rows"], 3] and built["rows"] == alone["rows"] + 3
    ds = build_mod.load_dataset_dir(tmp_path / "two")
    copies = {}
    for split in ("train", "validation"):
        for r in ds[split]:
            copies.setdefault((split, r["key"]), 0)
            copies[(split, r["key"])] += 1
    new = {k: v for k, v in copies.items() if k[1].startswith("round2-")}
    assert sorted(k[1] for k in new) == ["round2-1", "round2-2", "round2-3"]
    assert any(split == "train" for split, _ in new)
    assert all(v == (3 if split == "train" else 1) for (split, _), v in new.items())
    assert all(v == 1 for k, v in copies.items() if not k[1].startswith("round2-"))
    assert built["train"] == sum(v for (split, _), v in copies.items() if split == "train")
    assert "round2.jsonl` (x3: train rows repeated)" in (tmp_path / "two" / "README.md").read_text()
    assert build_mod.main(["--attempts", str(attempts), str(shard), "--weights", "2",
                           "--out", str(tmp_path / "bad")]) == 2
    assert "one positive integer per --attempts shard (2)" in capsys.readouterr().err
    assert not (tmp_path / "bad").exists()


def test_a_broken_line_in_a_shard_is_named(tmp_path, capsys):
    p = tmp_path / "a.jsonl"
    p.write_text(json.dumps({"key": "x", "state_key": "s", "passed": False}) + "\n{not json\n")
    assert build_mod.main(["--attempts", str(p), "--out", str(tmp_path / "o")]) == 2
    assert f"{p}:2: not a JSON line" in capsys.readouterr().err
