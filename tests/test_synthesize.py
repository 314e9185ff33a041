"""data_pipeline.synthesize on real sandboxes, and the shard layer's crash safety."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import get_backend
from data_pipeline.shards import Shard
from data_pipeline.synthesize import (PERTURBATIONS, STEP_CHARS, TESTS_FAILED_NOTE, plan, run, solution_steps,
                                      synthesize_one)
from reterm import failures, suites
from reterm.agent.formats import SimpleFormat

ROOT = Path(__file__).resolve().parent.parent


def test_every_bundled_solution_replays_step_by_step():
    """The steps split from each solve.sh, run one command at a time, still solve the task (so a perturbation, not
    the splitting, is what breaks a synthesized episode)."""
    from reterm.verifier import verify

    backend = get_backend("local")
    seen = set()
    for task in suites.load("basic"):
        if task.family in seen:
            continue
        seen.add(task.family)
        with backend.start(task) as sb:
            for step in solution_steps(task.solution.read_text()):
                assert sb.exec(step, timeout=60).exit_code == 0, (task.id, step)
            assert verify(sb, task).passed, task.id


def test_states_are_labelled_by_the_classifier():
    backend = get_backend("local")
    task = next(t for t in suites.load("basic") if t.family == "exec-bit")
    state = synthesize_one(backend, task, "skip_step", seed=0)  # drops the chmod: the script can't be executed
    assert state.category == failures.PERMISSION_DENIED
    assert state.steps == ["/app/bin/make_report.sh"] and "Permission denied" in state.evidence
    # the reference steps and the one the mistake replaced travel with the state, for the teacher
    assert state.solution_steps == ["chmod +x /app/bin/make_report.sh", "/app/bin/make_report.sh"]
    assert state.broken_step == 0
    assert state.history[-1]["role"] == "user" and state.history[-2]["content"].startswith("```bash")
    typo = synthesize_one(backend, task, "typo_command", seed=3)
    assert typo is None or typo.category in (failures.COMMAND_NOT_FOUND, failures.PERMISSION_DENIED,
                                                      failures.WRONG_PATH)


def test_run_resumes_without_duplicates(tmp_path):
    tasks = [t for t in suites.load("basic", "train") if t.id.endswith("-00")][:3]
    out = tmp_path / "synth.jsonl"
    first = run(tasks, get_backend("local"), out, variants=1)
    assert first["resumed"] == 0 and first["states"] >= 3
    assert first["by_category"][failures.OK] == 3  # one clean start per task, whatever the variants
    again = run(tasks, get_backend("local"), out, variants=1)
    assert again["resumed"] == first["jobs"] and again["states"] == first["states"]
    keys = [json.loads(l)["key"] for l in out.read_text().splitlines()]
    assert len(keys) == len(set(keys)) == first["jobs"]


def test_killed_run_resumes_to_the_same_result(tmp_path):
    """A run killed mid-way and run again ends with what an uninterrupted run writes; `--kinds` (four of the kinds
    here, so the test is short) is all it injects."""
    out_a, out_b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    tasks = [t for t in suites.load("basic", "train") if t.id.endswith("-01")][:4]
    kinds = ("wrong_path", "skip_step", failures.PREMATURE_COMPLETION, "clean")
    cmd = [sys.executable, "-m", "data_pipeline.synthesize", *[str(t.path) for t in tasks], "--variants", "1", "-j",
           "1", "--kinds", ",".join(kinds)]
    proc = subprocess.Popen(cmd + ["--out", str(out_a)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out_a.exists() or len(out_a.read_text().splitlines()) < 5):
        time.sleep(0.2)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    # what a SIGKILLed run leaves (a sandbox caught starting can outlive it) goes with `reterm sandbox gc`, which can
    # run beside the other pytest's sandboxes: it leaves any cgroup made in the last two minutes
    from reterm.sandbox.gc import GcReport, gc_local
    from reterm.sandbox.local import Cgroup

    report = GcReport()
    gc_local(report)
    assert all(Cgroup.existing(Path(d).name).paths == [] for d in report.state_dirs)
    with out_a.open("a") as f:
        f.write('{"key": "torn-by-the-kill", "x": ')  # what a kill in the middle of a write leaves
    partial = len(out_a.read_text().splitlines())
    assert 5 <= partial < len(plan(tasks, 1, kinds=kinds)) == 16
    subprocess.run(cmd + ["--out", str(out_a)], check=True, capture_output=True)
    subprocess.run(cmd + ["--out", str(out_b)], check=True, capture_output=True)
    a = {r["key"]: r for r in map(json.loads, out_a.read_text().splitlines())}
    b = {r["key"]: r for r in map(json.loads, out_b.read_text().splitlines())}
    assert "torn-by-the-kill" not in a and len(a) == len(out_a.read_text().splitlines())
    assert a == b  # nothing lost, nothing duplicated, same states as an uninterrupted run
    assert len(a) == 16 and {k.split(":")[1] for k in a} == set(kinds)


def test_an_unknown_kind_is_refused_with_the_known_ones(tmp_path):
    r = subprocess.run([sys.executable, "-m", "data_pipeline.synthesize", "--kinds", "wrong_path,typo", "--out",
                        str(tmp_path / "s.jsonl")], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "--kinds: unknown mistake kind(s) typo; known: typo_command," in r.stderr
    assert not (tmp_path / "s.jsonl").exists()


def test_shard_drops_a_torn_line(tmp_path):
    p = tmp_path / "s.jsonl"
    p.write_text('{"key": "a", "v": 1}\n{"key": "b", "v": 2')
    with Shard(p) as s:
        assert "a" in s and "b" not in s
        s.append({"key": "b", "v": 3})
        s.append({"key": "b", "v": 4})  # duplicates are ignored
    assert [json.loads(l)["v"] for l in p.read_text().splitlines()] == [1, 3]


def test_a_file_that_is_not_a_shard_is_named_and_left_as_it_is(tmp_path):
    """Only a last line torn by a stop is dropped; a bad line before it means the file is not the step's shard (a
    user's file given as --out): the step refuses it, naming the line, and the file keeps every byte. A directory,
    a path under a file, or bytes that are not text are refused the same way, before any work."""
    from data_pipeline.shards import ShardError

    p = tmp_path / "s.jsonl"
    text = '{"key": "a", "skipped": true}\n{"key": "b", oops\n{"key": "c", "skipped": true}\n'
    p.write_text(text)
    with pytest.raises(ShardError, match=f"{p}:2: not a record"):
        Shard(p)
    assert p.read_text() == text
    (tmp_path / "notes").write_text("x")
    p2 = tmp_path / "bin.jsonl"
    p2.write_bytes(b"\xff\xfe\n")
    for bad, why in ((tmp_path, "is a directory"), (tmp_path / "notes" / "s.jsonl", "is a file, not a folder"),
                     (p2, "not UTF-8")):
        with pytest.raises(ShardError, match=why):
            Shard(bad)
    task = str(ROOT / "reterm/suites/basic/tasks/bash-array-00")
    for out, why in ((p, f"{p}:2: not a record"), (tmp_path, "is a directory")):
        r = subprocess.run([sys.executable, "-m", "data_pipeline.synthesize", "--variants", "1", "--kinds", "clean",
                            "--out", str(out), task], capture_output=True, text=True, timeout=120, cwd=ROOT)
        assert r.returncode == 2 and why in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert p.read_text() == text


def test_each_perturbation_kind_applies_somewhere_and_changes_the_steps():
    import random

    from data_pipeline.synthesize import perturb

    applied = {}
    for task in suites.load("basic", "train"):
        steps = solution_steps(task.solution.read_text())
        for kind in PERTURBATIONS:
            out = perturb(steps, kind, random.Random(1))
            if out is not None:
                assert out != steps, (task.id, kind)
                applied[kind] = applied.get(kind, 0) + 1
    assert set(applied) == set(PERTURBATIONS)


def test_long_heredocs_are_written_in_parts_that_fit_a_reply():
    task = next(t for t in suites.load("basic", "train") if t.family == "crash-data")
    steps = solution_steps(task.solution.read_text())
    parts = [s for s in steps if s.startswith("cat ")]
    assert len(parts) >= 2 and parts[0].startswith("cat > /app/report.py") and parts[1].startswith("cat >> ")
    assert all(len(s) <= STEP_CHARS for s in parts)
    assert solution_steps(task.solution.read_text(), max_chars=10_000)[0].count("\n") > parts[0].count("\n")


def test_reply_mistakes_leave_the_state_before_the_step_and_say_what_the_agent_saw():
    backend = get_backend("local")
    task = next(t for t in suites.load("basic", "train") if t.family == "missing-input")
    for seed in range(3):
        bad = synthesize_one(backend, task, failures.UNPARSEABLE_REPLY, seed)
        i = bad.broken_step
        assert bad.category == failures.UNPARSEABLE_REPLY and bad.steps == bad.solution_steps[:i]
        assert SimpleFormat().parse(bad.history[-2]["content"]).error == bad.history[-1]["content"]
        early = synthesize_one(backend, task, failures.PREMATURE_COMPLETION, seed)
        assert early.category == failures.PREMATURE_COMPLETION and "TASK_COMPLETE" in early.history[-2]["content"]
        assert early.history[-1]["content"] == TESTS_FAILED_NOTE and early.steps == early.solution_steps[
            :early.broken_step]
    clean = synthesize_one(backend, task, "clean", 0)
    assert clean.category == failures.OK and clean.turn == -1 and len(clean.history) == 2 and clean.steps == []


def test_the_new_families_fail_in_their_own_categories():
    backend = get_backend("local")
    tasks = {t.family: t for t in suites.load("basic", "train")}
    hang = synthesize_one(backend, tasks["bounded-stream"], "drop_bound", 0)
    assert hang.category == failures.TIMEOUT and "--count" not in hang.steps[-1]
    crash = synthesize_one(backend, tasks["crash-data"], "skip_write", 0)
    assert crash.category == failures.RUNTIME_EXCEPTION and "ValueError" in crash.evidence
    assert crash.broken_step == 0 and crash.steps == ["python3 /app/report.py"]


def test_a_repeated_mistake_runs_the_same_failing_command_twice():
    """The loop a small model falls into: the failing command again, the same error again."""
    backend = get_backend("local")
    task = next(t for t in suites.load("basic", "train") if t.family == "exec-bit")
    state = synthesize_one(backend, task, "repeat_mistake", seed=0)
    assert state.category == failures.REPEATED_FAILURE and state.perturbation.startswith("repeat_mistake:")
    replies = [m["content"] for m in state.history if m["role"] == "assistant"]
    assert replies[-1] == replies[-2] and state.steps[-1] == state.steps[-2]
    assert "Permission denied" in state.history[-1]["content"] and "Permission denied" in state.evidence
    # the episode classifier labels the second run the same way
    cmd = state.steps[-1]
    assert failures.classify_step([{"output": state.evidence, "exit_code": 126, "timed_out": False}], None,
                                  [cmd], [cmd]) == failures.REPEATED_FAILURE
    assert state.turn == len(replies) - 1 and state.broken_step == 0
