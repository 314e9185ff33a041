"""The comparison of training methods (recipes/compare.py over reterm/compare.py) end to end at toy scale: a tiny
random model as the "SFT checkpoint", a frozen recovery benchmark of one state, plain GRPO and ReTerm-GRPO for one step
and one seed on the local backend, every checkpoint evaluated, one table and one chart; a second run of the same
command redoes nothing."""

from __future__ import annotations

import importlib.util
import gzip
import json
import os
import re
import sys
import time
from pathlib import Path

import pytest

import reterm.compare as cmp
from conftest import get_backend, harbor_task
from reterm import jobs, suites
from reterm.agent.episode import EpisodeConfig
from reterm.agent.policy import ReplayPolicy
from reterm.evaluation import recovery_bench as rb
from reterm.tasks import load_task

ROOT = Path(__file__).resolve().parent.parent


def _cli():
    """recipes/compare.py, the command, as a module (registered first: dataclasses look their module up)."""
    if "reterm_compare_recipe" not in sys.modules:
        spec = importlib.util.spec_from_file_location("reterm_compare_recipe", ROOT / "recipes" / "compare.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["reterm_compare_recipe"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["reterm_compare_recipe"]


def test_bad_method_and_missing_inputs_are_clear_errors(tmp_path, capsys):
    for bad in ("reterm:middle", "reterm", "reterm:first:stop", "reterm:first:skip:x", "plain:skip"):
        with pytest.raises(SystemExit, match=f"method '{bad}'"):
            cmp.method_args(bad)
    assert cmp.method_args("reterm:last") == ["--fork_from", "failure", "--fork_point", "last"]
    assert cmp.method_args("reterm:first:skip") == ["--fork_from", "failure", "--fork_point", "first",
                                                     "--on_success", "skip"]
    assert cmp.method_args("reterm:first:skip+done") == cmp.method_args("reterm:first:skip") + [
        "--penalty_undeclared_pass", "1"]
    assert cmp.method_args("plain+done") == ["--fork_from", "start", "--penalty_undeclared_pass", "1"]
    assert cmp.run_name("reterm:first:skip+done", 0, 3e-5) == "reterm-first-skip-done-lr3e-05-s0"
    for bad in ("plain+fast", "reterm:first+done+done", "reterm:first:done"):
        with pytest.raises(SystemExit, match=f"method '{re.escape(bad)}'"):
            cmp.method_args(bad)
    with pytest.raises(SystemExit):
        _cli().parse_args(["--sft", str(tmp_path / "none"), "--bench", str(tmp_path), "--out", str(tmp_path / "o")])
    assert "--sft" in capsys.readouterr().err
    # numbers, a split or suite that is none, a folder that is no checkpoint, a config or benchmark that does not
    # read: each named before --out is made
    sft, bench = tmp_path / "sft", tmp_path / "bench"
    (sft).mkdir()
    (bench / "states" / "s1").mkdir(parents=True)
    base = ["--sft", str(sft), "--bench", str(bench), "--out", str(tmp_path / "o"), "--policy", "transformers"]
    for extra, why in ((["-k", "0"], "-k, --samples and --max-heldout must be >= 1"),
                       (["--split", "bogus"], "--split bogus: not a split"),
                       (["--suite", "nosuch"], "--suite nosuch: neither a bundled suite"),
                       ([], "is not a model checkpoint (no config.json")):
        with pytest.raises(SystemExit):
            _cli().parse_args(base + extra)
        assert why in capsys.readouterr().err
    (sft / "config.json").write_text("{}")
    typo = tmp_path / "typo.yaml"
    (bench / "states" / "s1" / "state.json").write_text("not json")
    assert _cli().main(base) == 2
    assert "s1/state.json: unreadable failure state" in capsys.readouterr().err
    (bench / "states" / "s1" / "state.json").unlink()
    (bench / "states" / "s1").rmdir()
    for text in ("max_new_tokens_per_turn: [1\n", "dtyp: bf16\n"):
        typo.write_text(text)
        assert _cli().main(base + ["--config", str(typo)]) == 2
        assert f"--config {typo}" in capsys.readouterr().err
    assert not (tmp_path / "o").exists()


def _state(path: Path, steps: list[dict]) -> None:
    path.mkdir(parents=True, exist_ok=True)
    hist = [{"loss": 0.0, "step": i + 1, **h} for i, h in enumerate(steps)] + [{"train_runtime": 1.0}]
    (path / "trainer_state.json").write_text(json.dumps({"log_history": hist}))


def test_step_logs_say_where_the_groups_were_flat(tmp_path):
    """The per-run signal and the per-category breakdown are read from the step logs as the trainer writes them: a
    step whose only mixed group came from the task start is signal but not forked signal; a checkpoint's state is
    read when the run's own is missing, the newest checkpoint's first."""
    steps = [  # step 1: a forked syntax_error group mixed; step 2: only the start group mixed; step 3: all flat
        {"reterm/sampled_tokens": 1000.0, "reterm/flat_group_fraction": 0.5, "reterm/scouts": 2.0,
         "reterm/scout_pass_rate": 0.5, "reterm/time_step_s": 60.0, "reterm/recovery_rate/syntax_error": 0.25,
         "reterm/recovery_rate/start": 0.0},
        {"reterm/sampled_tokens": 3000.0, "reterm/flat_group_fraction": 0.5, "reterm/scouts": 4.0,
         "reterm/scout_pass_rate": 0.25, "reterm/time_step_s": 90.0, "reterm/recovery_rate/start": 0.5,
         "reterm/recovery_rate/syntax_error": 0.0},
        {"reterm/sampled_tokens": 2000.0, "reterm/flat_group_fraction": 1.0, "reterm/scouts": 2.0,
         "reterm/scout_pass_rate": 0.0, "reterm/time_step_s": 30.0, "reterm/recovery_rate/wrong_path": 1.0},
    ]
    run = tmp_path / "run"
    _state(run / "checkpoint-2", steps[:2])
    _state(run / "checkpoint-3", steps)
    log = cmp.training_log(run)
    assert log["steps"] == 3  # the newest checkpoint's state, not the oldest
    assert log["sampled_tokens_mean"] == 2000.0 and log["sampled_tokens_max"] == 3000.0
    assert log["steps_with_signal"] == 2 / 3 and log["steps_with_forked_signal"] == 1 / 3
    assert log["scouts"] == 8.0 and log["scouts_passed"] == 2.0 and log["train_wall_s"] == 180.0
    groups = cmp.group_categories(run)
    assert groups == {"start": {"steps": 2, "all_fail": 1, "mixed": 1, "all_pass": 0},
                      "syntax_error": {"steps": 2, "all_fail": 1, "mixed": 1, "all_pass": 0},
                      "wrong_path": {"steps": 1, "all_fail": 0, "mixed": 0, "all_pass": 1}}
    ev = {"recovery": {"by_category": {"syntax_error": {"recovered": 1, "attempts": 8, "infra_errors": 1}}},
          "heldout": {"passed": 3, "scored": 20}}
    md = cmp.runs_table({"reterm-first-s0": {"evals": {0: ev, 10: ev}, "training": log, "groups": groups}}, 10)
    assert "| reterm-first-s0 | 10 | 1/7 | 3/20 | 67% | 33% | 2,000; 3,000 | 8 (2) | 180 s |" in md
    assert "| reterm-first-s0 | start: 2/1/1/0, syntax_error: 2/1/1/0, wrong_path: 1/0/0/1 |" in md
    assert cmp.training_log(tmp_path / "none") == {} and cmp.group_categories(tmp_path / "none") == {}


@pytest.mark.slow
@pytest.mark.background
@pytest.mark.timeout(1500)
def test_toy_comparison_end_to_end_and_resumable(tmp_path, tiny_model_dir, tokenizer):
    task = load_task(harbor_task(tmp_path / "tasks" / "t"))
    failing = ReplayPolicy(["```bash\ncd /app && cat /app/notes.txt\n```", "TASK_COMPLETE"], tokenizer)
    rb.build(failing, [task], get_backend("local"), tmp_path / "bench", EpisodeConfig(max_turns=2))
    out = tmp_path / "cmp"
    argv = ["--sft", str(tiny_model_dir), "--bench", str(tmp_path / "bench"), "--out", str(out), "--steps", "2",
            "--eval-every", "1", "--seeds", "0", "--methods", "reterm:first", "plain", "--reference", "plain",
            "--max-heldout", "2",
            "-k", "2", "--token-budget", "256", "--refill-tries", "2", "--concurrency", "2",
            "--policy", "transformers",
            "--", "--max_new_tokens_per_turn", "8", "--max_scout_turns", "1", "--max_recovery_turns", "1",
            "--num_generations", "2", "--per_device_train_batch_size", "2", "--sandbox_concurrency", "4"]
    assert _cli().main(argv) == 0
    res = json.loads((out / "results.json").read_text())
    rows = {(r["method"], r["step"]): r for r in res["rows"]}
    assert set(rows) == {("sft", 0), ("plain", 1), ("reterm:first", 1), ("plain", 2), ("reterm:first", 2)}
    for name in ("plain-s0", "reterm-first-s0"):  # stopped after step 1, evaluated there, then resumed to step 2
        run, ev = out / "runs" / name, out / "eval" / name
        assert (run / "DONE").exists() and json.loads((run / "checkpoint-2/trainer_state.json").read_text())[
            "global_step"] == 2
        assert (ev / "step-1.json").stat().st_mtime < (run / "checkpoint-2/trainer_state.json").stat().st_mtime
        assert res["runs"][name]["training"]["steps"] == 2
    assert [(t["arm"], t["against"]) for t in res["paired"]] == [("reterm:first", "plain")] * 2
    # ReTerm-GRPO's seed trained first, as listed
    assert (out / "runs/reterm-first-s0/DONE").stat().st_mtime < (out / "runs/plain-s0/DONE").stat().st_mtime
    for r in rows.values():
        assert r["overall"]["n"] == 2 and r["pass@1"]["n"] == 2  # 1 state x k=2, 2 held-out tasks x 1 sample
        lo, hi = r["overall"]["ci95"]
        assert 0 <= lo <= r["overall"]["rate"] <= hi <= 1
    for name in ("plain-s0", "reterm-first-s0"):
        assert res["runs"][name]["training"]["sampled_tokens_mean"] > 0  # the budget used, logged for both
    table = (out / "table.md").read_text()
    assert "| plain | 2 | 1 |" in table and "| reterm:first | 2 | 1 |" in table
    assert (out / "compare.png").read_bytes()[:4] == b"\x89PNG"
    runs = (out / "runs.md").read_text()
    assert "| plain-s0 | 2 | " in runs and "| reterm-first-s0 | 2 | " in runs
    attempts = [json.loads(x) for x in (out / "eval/plain-s0/step-1.attempts.jsonl").read_text().splitlines()]
    assert len(attempts) == 2 and all("commands" in a and a["stop_reason"] for a in attempts)
    held = gzip.decompress((out / "eval/plain-s0/step-1.heldout.jsonl.gz").read_bytes()).decode().splitlines()
    assert len(held) == 2 and all(json.loads(x)["messages"] for x in held)  # 2 held-out tasks x 1 sample
    # how the passes ended (by declaring done, or at the turn limit), counted per evaluation and pooled per row
    ev_path = out / "eval/plain-s0/step-1.json"
    ev = json.loads(ev_path.read_text())
    held = [json.loads(x) for x in held]
    assert ev["declared_done"] == {part: [sum(x["passed"] and x["stop_reason"] == "done" for x in rows),
                                          sum(bool(x["passed"]) for x in rows)]
                                   for part, rows in (("recovery", attempts), ("heldout", held))}
    assert rows[("plain", 1)]["declared_done"] == ev["declared_done"]
    assert "passes that declared done (recovery; held-out)" in (out / "table.md").read_text()
    old = dict(ev)
    del old["declared_done"]  # an evaluation cached before it was counted: read from the files beside it
    ev_path.write_text(json.dumps(old))
    assert cmp.evaluate(None, None, ev_path, None, None)["declared_done"] == ev["declared_done"]
    ev_path.write_text(json.dumps(ev))

    done = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.name == "DONE" or p.suffix == ".json"
            and "eval" in p.parts}
    assert _cli().main(argv) == 0  # resumed: nothing retrained or re-evaluated
    assert {p: p.stat().st_mtime_ns for p in done} == done

    # a follow-up arm beside them (--reuse): the finished plain run and the start's evaluation are linked, not trained
    # or evaluated again; the new arm trains with its reward change and is paired against plain GRPO
    follow = tmp_path / "follow"
    fargv = [("reterm:first+done" if x == "reterm:first" else str(follow) if x == str(out) else x) for x in argv]
    fargv[fargv.index("--"):fargv.index("--")] = ["--reuse", str(out)]
    other = tmp_path / "other-start"  # a checkpoint, not the one the reused runs started from
    other.mkdir()
    (other / "config.json").write_text("{}")
    for bad, why in ((["-k", "1"], "more than k=1 attempts"), (["--sft", str(other)], "its start was")):
        with pytest.raises(SystemExit, match=why):
            _cli().main(fargv[:fargv.index("--")] + bad + fargv[fargv.index("--"):])
        assert not (follow / "runs" / "plain-s0").exists()  # nothing linked before the check
    assert _cli().main(fargv) == 0
    assert (follow / "runs/plain-s0").resolve() == (out / "runs/plain-s0").resolve()
    assert (follow / "eval/sft").is_symlink() and not (follow / "runs/reterm-first-done-s0").is_symlink()
    assert {p: p.stat().st_mtime_ns for p in done} == done
    import torch
    targs = torch.load(follow / "runs/reterm-first-done-s0/checkpoint-2/training_args.bin", weights_only=False)
    assert targs.penalty_undeclared_pass == 1.0 and targs.fork_from == "failure"
    assert torch.load(out / "runs/plain-s0/checkpoint-2/training_args.bin",
                      weights_only=False).penalty_undeclared_pass == 0.0
    fres = json.loads((follow / "results.json").read_text())
    assert {(r["method"], r["step"]) for r in fres["rows"]} == {
        ("sft", 0), ("plain", 1), ("plain", 2), ("reterm:first+done", 1), ("reterm:first+done", 2)}
    assert [(t["arm"], t["against"]) for t in fres["paired"]] == [("reterm:first+done", "plain")] * 2
    assert fres["runs"]["plain-s0"]["evals"]["2"] == res["runs"]["plain-s0"]["evals"]["2"]


def test_an_evaluation_stopped_partway_keeps_what_it_finished_and_runs_only_the_rest(tmp_path, tokenizer,
                                                                                      monkeypatch, capsys):
    """`evaluate` runs the recovery attempts and the held-out episodes at once on one engine; when it stops partway
    (here the third recovery attempt raises, as a dying engine would), the states whose every attempt finished and the
    held-out episodes that finished are kept in step-N.partial/ (the torn last line a kill leaves is skipped), and the
    next call runs only the rest, giving one result over every state and task; the folder then goes. A partial folder
    left by other settings is discarded. The policy is a scripted one (ReplayPolicy): what runs is counted, not what
    a model says, and the recovery attempts must pass, which a tiny random model's replies would not."""
    import argparse

    import reterm.agent.policies as policies
    import reterm.evaluation.trials as trials

    tasks = [load_task(harbor_task(tmp_path / "tasks" / f"t{i}")) for i in range(3)]
    failing = ReplayPolicy(["```bash\ncd /app && cat /app/notes.txt\n```", "TASK_COMPLETE"], tokenizer)
    rb.build(failing, tasks, get_backend("local"), tmp_path / "bench", EpisodeConfig(max_turns=2))
    states = rb.load_states(tmp_path / "bench")
    assert len(states) == 3
    replies = ["```bash\necho ok > /app/out.txt\n```", "TASK_COMPLETE"]
    monkeypatch.setattr(policies, "make_policy", lambda *a, **k: ReplayPolicy(replies, tokenizer))
    attempts, trials_run, fail_at = [], [], [3]
    real_episode, real_trial = rb.run_episode, trials.run_trial

    def episode(*args, **kw):
        attempts.append(1)
        if len(attempts) == fail_at[0]:
            raise RuntimeError("the engine died")
        return real_episode(*args, **kw)

    def trial(task, backend, agent, sample=0, logs=None):
        trials_run.append((task.id, sample))
        return real_trial(task, backend, agent, sample, logs)

    monkeypatch.setattr(rb, "run_episode", episode)
    monkeypatch.setattr(trials, "run_trial", trial)
    a = argparse.Namespace(benches={"in": tmp_path / "bench"}, k=2, samples=1, eval_seed=0, policy="replay",
                           concurrency=1, backend="local", engine_batch=None)
    settings = {"max_new_tokens": 16, "temperature": 1.0, "format": "simple", "observation_tokens": 256,
                "max_context_tokens": 2048, "command_timeout_s": 30.0, "recovery_turns": 2, "task_turns": 2}
    out = tmp_path / "eval" / "step-1.json"
    with pytest.raises(RuntimeError, match="the engine died"):
        cmp.evaluate(a, tmp_path / "model", out, settings, {"held": tasks[:2]})
    partial = out.with_suffix(".partial")
    kept = [json.loads(x) for x in (partial / "recovery-in.jsonl").read_text().splitlines()]
    first = {r["state"] for r in kept if sum(x["state"] == r["state"] for x in kept) == 2}
    assert 1 <= len(first) <= 2 and not out.exists()  # states that finished both attempts beside the failed one
    assert sorted(trials_run) == [("t0", 0), ("t1", 0)]  # the held-out episodes ran beside and finished
    with (partial / "recovery-in.jsonl").open("a") as f:
        f.write('{"state": "torn')  # the line a kill cuts
    attempts.clear(), trials_run.clear()
    fail_at[0] = 0  # no failure from here on
    res = cmp.evaluate(a, tmp_path / "model", out, settings, {"held": tasks[:2]})
    assert len(attempts) == 2 * (3 - len(first)) and trials_run == []  # the unfinished states' attempts only
    assert res["recovery"]["overall"]["attempts"] == 6 and res["recovery"]["overall"]["states"] == 3
    # the engine's account of this call (its counts are the policy's: tests/test_vllm.py): its settings, its wall
    engine = res["engine"]
    assert (engine["engine_batch"], engine["concurrency"]) == (16, 1) and engine["wall_s"] >= 0
    assert len((out.with_suffix(".attempts.jsonl")).read_text().splitlines()) == 6
    assert len(gzip.decompress(out.with_suffix(".heldout.jsonl.gz").read_bytes()).splitlines()) == 2
    assert not partial.exists()
    # a partial folder of another evaluation's settings is not mixed in
    out.unlink()
    partial.mkdir()
    (partial / "key.json").write_text(json.dumps({"k": 99}))
    (partial / "recovery-in.jsonl").write_text("".join(json.dumps(r) + "\n" for r in kept))
    attempts.clear()
    cmp.evaluate(a, tmp_path / "model", out, settings, {"held": tasks[:2]})
    assert len(attempts) == 6 and "other settings" in capsys.readouterr().out


def test_a_trial_ending_after_a_stop_is_not_kept_and_a_resumed_run_does_the_rest(tmp_path, monkeypatch):
    """run_tasks in a worker thread (as `evaluate` runs it) when told to stop (reterm.stopping.STOP, which a signal
    sets): the trial that ends after the stop was cut short and is not written as a result, nothing more starts, and
    the thread raises the stop's SystemExit; run again with `resume`, only the trials not kept run."""
    import threading

    import reterm.evaluation.trials as trials
    from reterm import stopping

    tasks = [load_task(harbor_task(tmp_path / "tasks" / f"t{i}")) for i in range(3)]
    ran, real, resumed = [], trials.run_trial, False

    def trial(task, backend, agent, sample=0, logs=None):
        phase = resumed  # a trial of the first run may still be ending (its sandbox closed) when the second starts
        res = real(task, backend, agent, sample, logs)
        ran.append((phase, task.id))
        if task.id == "t1" and not phase:
            stopping.STOP.set()  # the signal arrives while t1 runs
        return res

    monkeypatch.setattr(trials, "run_trial", trial)
    out, caught = tmp_path / "run", []

    def worker():
        try:
            trials.run_tasks(tasks, get_backend("local"), "oracle", out, concurrency=1)
        except SystemExit as e:
            caught.append(e.code)

    try:
        t = threading.Thread(target=worker)
        t.start()
        t.join(300)
    finally:
        stopping.STOP.clear()
    assert caught == [130] and ran[:2] == [(False, "t0"), (False, "t1")]
    assert [r["task_id"] for r in trials.finished_trials(out / "results.jsonl")] == ["t0"]
    assert json.loads((out / "summary.json").read_text())["interrupted"] is True
    resumed = True
    trials.run_tasks(tasks, get_backend("local"), "oracle", out, concurrency=1, resume=True)
    assert sorted(x for phase, x in ran if phase) == ["t1", "t2"]
    assert sorted(r["task_id"] for r in trials.finished_trials(out / "results.jsonl")) == ["t0", "t1", "t2"]


def test_pooled_intervals_count_a_states_attempts_as_alike_over_seeds():
    """Two seeds x 4 attempts on 5 states, each state always or never recovered: 40 attempts that carry the
    information of 5 states. The interval must be the one over states, not the narrow one over attempts; results
    cached without per-state counts keep Wilson over attempts."""
    from reterm.evaluation.metrics import wilson_interval

    per_state = {f"s{i}": ["syntax_error", 4 if i < 2 else 0, 4] for i in range(5)}
    result = {"recovery": {"by_category": {"syntax_error": {"recovered": 8, "attempts": 20, "infra_errors": 0}},
                           "per_state": per_state},
              "heldout": {"passed": 1, "scored": 2, "per_task": {"t0": [1, 1], "t1": [0, 1]}}}
    p = cmp.pooled([result, result])
    assert p["overall"]["k"] == 16 and p["overall"]["n"] == 40
    assert p["overall"]["ci95"] == pytest.approx(wilson_interval(2, 5), abs=1e-4)
    assert p["recovery"]["syntax_error"]["ci95"] == p["overall"]["ci95"]
    old = {"recovery": {"by_category": result["recovery"]["by_category"]}, "heldout": {"passed": 1, "scored": 2}}
    assert cmp.pooled([old, old])["overall"]["ci95"] == pytest.approx(wilson_interval(16, 40))


def test_passes_that_declared_done_are_counted_and_pooled_over_seeds():
    """How passes ended: a pass that ran to its turn limit, a failure that declared done and an infra failure are not
    counted as declared passes; the row pools the seeds; a seed without the count leaves the row without it."""
    rows = [{"passed": True, "stop_reason": "done"}, {"passed": True, "stop_reason": "max_turns"},
            {"passed": False, "stop_reason": "done"}, {"passed": True, "stop_reason": "done", "infra_error": "x"},
            {"passed": None, "stop_reason": "error"}]
    assert cmp._done_of_passed(rows) == [1, 2]
    base = {"recovery": {"by_category": {"a": {"recovered": 2, "attempts": 4, "infra_errors": 0}}},
            "heldout": {"passed": 1, "scored": 2}}
    s0 = {**base, "declared_done": {"recovery": [1, 2], "heldout": [1, 1]}}
    s1 = {**base, "declared_done": {"recovery": [0, 2], "heldout": [1, 1]}}
    row = {"method": "m", "step": 1, **cmp.pooled([s0, s1])}
    assert row["declared_done"] == {"recovery": [1, 4], "heldout": [2, 2]}
    assert cmp.table([row]).splitlines()[-1].endswith("| 1/4; 2/2 |")
    assert "declared_done" not in cmp.pooled([s0, base])


def _eval(per_state: dict, per_task: dict) -> dict:
    cats: dict = {}
    for cat, c, n in per_state.values():
        row = cats.setdefault(cat, {"recovered": 0, "attempts": 0, "infra_errors": 0})
        row["recovered"] += c
        row["attempts"] += n
    return {"recovery": {"by_category": cats, "per_state": per_state},
            "heldout": {"passed": sum(c for c, _ in per_task.values()), "scored": sum(n for _, n in per_task.values()),
                        "per_task": per_task}}


def test_report_pairs_every_arm_with_the_first_on_the_same_states_and_tasks(tmp_path):
    """Two arms, two seeds: the paired test sums each state's attempts over the seeds both arms have, and finds a
    difference the pooled intervals overlap on. The sweep's choice follows its rule."""
    import argparse

    states = {f"s{i}": "wrong_path" for i in range(12)}
    plain = _eval({s: [c, 1 if i < 3 else 0, 4] for i, (s, c) in enumerate(states.items())},
                  {"t0": [1, 2], "t1": [0, 2]})
    better = _eval({s: [c, 3 if i < 9 else 0, 4] for i, (s, c) in enumerate(states.items())},
                   {"t0": [2, 2], "t1": [0, 2]})
    per_run = {f"{m}-s{seed}": {"method": m, "arm": m, "lr": None, "seed": seed, "training": {}, "groups": {},
                                "evals": {0: plain, 20: plain if m == "plain" else better}}
               for m in ("plain", "reterm:first:skip") for seed in (0, 1)}
    a = argparse.Namespace(out=tmp_path, steps=20, learning_rates=None)
    md = cmp.report(a, plain, per_run, [("plain", None), ("reterm:first:skip", None)])
    res = json.loads((tmp_path / "results.json").read_text())
    [test] = res["paired"]
    assert test["seeds"] == [0, 1] and test["step"] == 20
    rec = test["recovery"]
    assert rec["units"] == 12 and rec["a_better"] == 9 and rec["b_better"] == 0
    assert rec["difference"] == pytest.approx((3 * (6 / 8 - 2 / 8) + 6 * 6 / 8) / 12, abs=1e-4)
    assert rec["p_value"] == pytest.approx(2 / 2 ** 9, abs=1e-4)  # 9 states differ, all one way: exact
    assert test["pass@1"]["units"] == 2 and test["recovery by task"]["units"] == 12  # one state a task here
    assert "## Paired tests" in md and "| reterm:first:skip | plain | 20 | 0,1 | recovery | 12 states |" in md
    # each seed's own difference beside the pooled test: alike here, unlike once seed 1 of the arm learns nothing
    assert rec["by_seed"] == {"0": rec["difference"], "1": rec["difference"]}
    per_run["reterm:first:skip-s1"]["evals"][20] = plain
    md = cmp.report(a, plain, per_run, [("plain", None), ("reterm:first:skip", None)])
    [test1] = json.loads((tmp_path / "results.json").read_text())["paired"]
    assert test1["recovery"]["by_seed"] == {"0": rec["difference"], "1": 0.0}
    assert test1["pass@1"]["by_seed"] == {"0": 0.25, "1": 0.0}
    assert f"| s0 +{rec['difference']:.3f}, s1 +0.000 |" in md and "how another seed would train" in md
    per_run["reterm:first:skip-s1"]["evals"][20] = better
    # the chart draws each seed's curve beside the pooled one
    seed_rows = [{"method": r["arm"], "seed": r["seed"], "step": s, **cmp.pooled([e])}
                 for r in per_run.values() for s, e in r["evals"].items()]
    assert cmp.chart(res["rows"], tmp_path / "c.png", seed_rows) == [
        "plain, each seed", "reterm:first:skip, each seed", "plain", "reterm:first:skip"]
    assert (tmp_path / "c.png").stat().st_size > 0
    # a method run with one seed has no separate seed curve: it would lie on the pooled one
    one_seed = [r for r in seed_rows if r["method"] == "plain" or r["seed"] == 0]
    assert cmp.chart(res["rows"], tmp_path / "c.png", one_seed) == [
        "plain, each seed", "plain", "reterm:first:skip"]
    # ReTerm-GRPO trained first (listed first), plain GRPO still the reference: the same test, the same way round
    a.reference = "plain"
    cmp.report(a, plain, per_run, [("reterm:first:skip", None), ("plain", None)])
    assert json.loads((tmp_path / "results.json").read_text())["paired"] == res["paired"]

    # the sweep: (recovery + pass@1) / 2 at the last step, mean over methods; ties go to the larger rate
    rows = [{"lr": lr, "step": 10, "overall": {"rate": rec_}, "pass@1": {"rate": p}}
            for lr, rec_, p in ((1e-5, 0.5, 0.5), (3e-5, 0.6, 0.4), (3e-6, 0.7, 0.7), (3e-6, 0.1, 0.1))]
    chosen = cmp.choose_lr(rows, [3e-6, 1e-5, 3e-5])
    assert chosen["learning_rate"] == 3e-5 and chosen["scores"] == {"3e-06": 0.4, "1e-05": 0.5, "3e-05": 0.5}
    assert "the highest wins" in chosen["rule"]


def test_arms_are_also_paired_at_no_more_sampled_tokens(tmp_path):
    """An arm that samples more tokens a step is compared with the reference at the arm's latest checkpoint that had
    spent no more (cumulative, from the step logs, mean over the seeds both have): here the arm's step 20 (3,000 on
    the mean) against the reference's step 40 (4,200); no arm checkpoint is as cheap as the reference's step 20
    (2,200), so that step has no row."""
    import argparse

    run = tmp_path / "run"
    _state(run / "checkpoint-3", [{"reterm/sampled_tokens": t} for t in (1000.0, 3000.0, 2000.0)])
    assert cmp.tokens_at(run) == {1: 1000.0, 2: 4000.0, 3: 6000.0} and cmp.tokens_at(tmp_path / "none") == {}

    states = {f"s{i}": "wrong_path" for i in range(6)}
    evals = {step: _eval({s: [c, min(4, i + step // 20), 4] for i, (s, c) in enumerate(states.items())},
                         {"t0": [1, 1], "t1": [step // 40, 1]}) for step in (20, 40)}
    spent = {("plain", 0): {20: 2000.0, 40: 4000.0}, ("plain", 1): {20: 2400.0, 40: 4400.0},
             ("reterm:first:skip", 0): {20: 2500.0, 40: 5000.0}, ("reterm:first:skip", 1): {20: 3500.0, 40: 7000.0}}
    per_run = {f"{m}-s{seed}": {"method": m, "arm": m, "lr": None, "seed": seed, "training": {}, "groups": {},
                                "evals": {0: evals[20], **evals}, "tokens_at": tokens}
               for (m, seed), tokens in spent.items()}
    [test] = cmp.budget_matched(per_run, "plain", "reterm:first:skip")
    assert (test["step"], test["ref_step"], test["seeds"], test["tokens"]) == (20, 40, [0, 1], [3000, 4200])
    # the arm's step 20 against the reference's step 40, which passes one more attempt on states s0-s2 and task t1
    rec = test["recovery"]
    assert (rec["units"], rec["a_better"], rec["b_better"]) == (6, 0, 3)
    assert rec["difference"] == pytest.approx(-0.125, abs=1e-4)
    assert test["pass@1"]["difference"] == pytest.approx(-0.5, abs=1e-4)
    md = cmp.report(argparse.Namespace(out=tmp_path, steps=40, learning_rates=None), evals[20], per_run,
                    [("plain", None), ("reterm:first:skip", None)])
    assert "## Paired tests at no more sampled tokens" in md
    assert "| reterm:first:skip | plain | 20 / 40 | 0,1 | 3,000 / 4,200 | recovery | 6 states |" in md
    assert json.loads((tmp_path / "results.json").read_text())["paired_at_budget"][0]["ref_step"] == 40
    # the arm sampling no more than the reference: its same step; without step logs, no section at all
    for seed in (0, 1):
        per_run[f"reterm:first:skip-s{seed}"]["tokens_at"] = spent[("plain", seed)]
    assert [(t["step"], t["ref_step"]) for t in cmp.budget_matched(per_run, "plain", "reterm:first:skip")] == \
        [(20, 20), (40, 40)]
    for r in per_run.values():
        r["tokens_at"] = {}
    assert cmp.budget_matched(per_run, "plain", "reterm:first:skip") == []


def test_design_says_what_difference_the_comparison_can_detect():
    import argparse

    start = _eval({f"s{i}": ["wrong_path", i % 5, 4] for i in range(100)}, {f"t{i}": [i % 3, 4] for i in range(100)})
    a = argparse.Namespace(k=4, seeds=[0, 1], samples=4)
    text = cmp.design(a, start, 2)
    rec = next(line for line in text.splitlines() if line.startswith("| recovery | 100 |"))
    powers = [float(x) for x in rec.strip("|").split("|")[3:]]
    assert powers == sorted(powers) and powers[0] < 0.5 < powers[-1]  # grows with the difference


def test_only_the_evaluation_steps_are_evaluated_and_kept(tmp_path):
    run = tmp_path / "run"
    for step in (10, 20, 30, 40, 45):
        (run / f"checkpoint-{step}").mkdir(parents=True)
        (run / f"checkpoint-{step}" / "optimizer.pt").write_text("x")
        (run / f"checkpoint-{step}" / "model.safetensors").write_text("x")
    assert list(cmp.checkpoints(run, 45, 20)) == [20, 40, 45]  # the last step is always evaluated
    assert list(cmp.checkpoints(run, 45)) == [10, 20, 30, 40, 45]
    cmp.prune(run, 45, 20)  # not finished: nothing deleted (resuming needs the newest checkpoint and its optimizer)
    assert len(list(run.glob("checkpoint-*/optimizer.pt"))) == 5
    (run / "DONE").write_text("")
    cmp.prune(run, 45, 20)
    assert sorted(p.name for p in run.glob("checkpoint-*")) == ["checkpoint-20", "checkpoint-40", "checkpoint-45"]
    assert not list(run.glob("checkpoint-*/optimizer.pt")) and len(list(run.glob("*/model.safetensors"))) == 3


def test_while_a_run_trains_only_its_newest_checkpoint_keeps_an_optimizer_state(tmp_path):
    """`prune_superseded` (run by `train` every 20 s): superseded checkpoints lose their optimizer state, and go
    unless evaluated or kept; the newest whole checkpoint (what a resume reads) and one being written stay as they
    are. At the end `prune` makes the kept last step's weights one file with the final model's."""
    run = tmp_path / "run"
    for step in (10, 20, 30, 40, 50, 60):
        (run / f"checkpoint-{step}").mkdir(parents=True)
        (run / f"checkpoint-{step}" / "optimizer.pt").write_text("o")
        (run / f"checkpoint-{step}" / "model.safetensors").write_text(f"w{step}")
        if step < 60:  # checkpoint-60 is being written: no trainer_state.json yet
            (run / f"checkpoint-{step}" / "trainer_state.json").write_text("{}")
    cmp.prune_superseded(run, 100, 100, keep_every=20)  # checkpoint-50 was just written: the Trainer may be listing
    assert len(list(run.glob("checkpoint-*/optimizer.pt"))) == 6  # its checkpoints still; nothing is touched yet
    old = time.time() - 31
    os.utime(run / "checkpoint-50" / "trainer_state.json", (old, old))
    cmp.prune_superseded(run, 100, 100, keep_every=20)
    assert sorted(p.name for p in run.glob("checkpoint-*")) == ["checkpoint-20", "checkpoint-40", "checkpoint-50",
                                                               "checkpoint-60"]
    assert sorted(p.parent.name for p in run.glob("checkpoint-*/optimizer.pt")) == ["checkpoint-50",
                                                                                  "checkpoint-60"]
    assert (run / "checkpoint-20" / "model.safetensors").read_text() == "w20"
    cmp.prune_superseded(run, 100, 50)  # no keep_every: only what is evaluated (50, 100) survives supersession
    assert sorted(p.name for p in run.glob("checkpoint-*")) == ["checkpoint-50", "checkpoint-60"]
    # the run finishes: checkpoint-100 holds the final model's weights, which prune shares with the final model
    (run / "checkpoint-100").mkdir()
    (run / "checkpoint-100" / "model.safetensors").write_text("w100")
    (run / "model.safetensors").write_text("w100")
    (run / "DONE").write_text("")
    cmp.prune(run, 100, 100, keep_every=50)
    assert sorted(p.name for p in run.glob("checkpoint-*")) == ["checkpoint-100", "checkpoint-50"]
    final, last = run / "model.safetensors", run / "checkpoint-100" / "model.safetensors"
    assert last.stat().st_ino == final.stat().st_ino and last.read_text() == "w100"
    assert (run / "checkpoint-50" / "model.safetensors").stat().st_ino != final.stat().st_ino


def test_a_run_the_disk_cannot_hold_is_refused_before_it_starts(tmp_path, monkeypatch):
    """A training run whose checkpoints would not fit the disk (8x the weights, less what its folder already holds)
    is refused before anything starts. A full disk cannot be made here, so the free space is faked, and the trainer's
    launch is recorded instead of run: what is checked is only whether it starts (the toy comparison runs it)."""
    import argparse
    import shutil as sh

    model = tmp_path / "sft"
    model.mkdir()
    (model / "model.safetensors").write_bytes(b"w" * 1000)
    launched = []
    monkeypatch.setattr(cmp.subprocess, "run", lambda *x, **k: launched.append(x))
    a = argparse.Namespace(out=tmp_path / "out", steps=2, eval_every=2, keep_every=None, save_every=None,
                           config=tmp_path / "c.yaml", sft=model, refill_tries=1, token_budget=None, recipe_args=[],
                           launch="")
    Usage = type(sh.disk_usage(tmp_path))
    monkeypatch.setattr(cmp.shutil, "disk_usage", lambda p: Usage(10**12, 10**12 - 7999, 7999))  # 8x the weights less 1
    with pytest.raises(RuntimeError, match=r"needs about 0.0 GB more while it runs .* nothing was started"):
        cmp.train(a, "plain", 0)
    assert launched == []
    run = a.out / "runs" / cmp.run_name("plain", 0, None)
    (run / "checkpoint-10").mkdir(parents=True)  # a resumed run: what its folder holds counts (a hard link once)
    (run / "checkpoint-10" / "optimizer.pt").write_bytes(b"o" * 2000)
    (run / "checkpoint-10" / "model.safetensors").write_bytes(b"w" * 1000)
    os.link(run / "checkpoint-10" / "model.safetensors", run / "model.safetensors")
    monkeypatch.setattr(cmp.shutil, "disk_usage", lambda p: Usage(10**12, 10**12 - 4999, 4999))
    with pytest.raises(RuntimeError, match="nothing was started"):
        cmp.train(a, "plain", 0)
    monkeypatch.setattr(cmp.shutil, "disk_usage", lambda p: Usage(10**12, 10**12 - 5000, 5000))
    cmp.train(a, "plain", 0)
    assert len(launched) == 1


def test_states_of_one_task_instance_are_tested_together():
    assert cmp.state_task("fix-bug-c03-s7-t2") == "fix-bug-c03"
    assert cmp.state_task("find-log-h00-t1") == "find-log-h00"
    assert cmp.by_task({"a-c00-s0-t1": (1, 4), "a-c00-s3-t0": (2, 4), "b-c01-s0-t2": (0, 4)}) == {
        "a-c00": (3, 8), "b-c01": (0, 4)}


def test_the_compare_job_trains_and_evaluates_the_sweep_and_the_arms_alike(tmp_path):
    """recipes/configs/smollm2-135m/compare_job.yaml and compare_sweep.yaml: the learning-rate sweep and the arms pass
    the same recipe arguments (the sweep takes the compare job's settings), so both train and are evaluated with the
    same turn limits (6-turn recovery attempts: this start's failures need a fix and a rerun or two); the arms train
    at the rate compare_lr.yaml keeps, ReTerm-GRPO first, paired against plain GRPO; every stage's command resolves
    and recipes/compare.py accepts it."""
    start = tmp_path / "sft2"
    start.mkdir()
    (start / "config.json").write_text("{}")  # a checkpoint, as far as parsing asks
    argv = {}
    for config in ("compare_job", "compare_sweep"):
        job = jobs.load_job(ROOT / f"recipes/configs/smollm2-135m/{config}.yaml", run_dir=str(tmp_path / config),
                               overrides=[f"start={start}", "engine=transformers"])
        argv |= {s.name: jobs.resolve(job, s) for s in job.stages}
        for name in ("val_bench", "bench"):
            (tmp_path / config / name / "states").mkdir(parents=True)
    assert list(argv) == ["bench", "arms", "followup", "val_bench", "lr_sweep"]
    settings, parsed = {}, {}
    for name in ("lr_sweep", "arms", "followup"):
        cmd = argv[name]
        assert cmd[1] == "recipes/compare.py"
        parsed[name] = a = _cli().parse_args([str(ROOT / x) if x.startswith("recipes/configs/") else x
                                              for x in cmd[2:]])
        settings[name] = cmp.eval_settings(a.config, a.recipe_args)
        assert a.sft == start
    assert settings["lr_sweep"] == settings["arms"]
    assert settings["arms"]["recovery_turns"] == 6 and settings["arms"]["task_turns"] == 9
    assert parsed["lr_sweep"].methods == ["plain", "reterm:first:skip"]
    assert parsed["arms"].methods == ["reterm:first:skip", "plain"] and parsed["arms"].reference == "plain"
    assert parsed["arms"].lr_from_rate == 3e-5 and parsed["arms"].learning_rates is None
    assert parsed["lr_sweep"].learning_rates == [1e-5, 3e-5]
    # the follow-up: the arms' settings and budget, its reward change alone, beside the arms' own runs of its seed
    f, arms = parsed["followup"], parsed["arms"]
    assert settings["followup"] == settings["arms"] and f.reuse == tmp_path / "compare_job" / "arms"
    assert f.methods == ["reterm:first:skip+done", "reterm:first:skip", "plain"] and f.reference == "plain"
    assert f.seeds == [0] and set(f.seeds) <= set(arms.seeds)
    assert [(x.steps, x.eval_every, x.refill_tries, x.k, x.samples, x.lr_from_rate, x.token_budget, x.recipe_args)
            for x in (f, arms)] == [(arms.steps, arms.eval_every, arms.refill_tries, arms.k, arms.samples, 3e-5,
                                     arms.token_budget, arms.recipe_args)] * 2


def test_a_sweeps_choice_is_read_from_json_or_yaml_and_a_bad_one_names_the_file(tmp_path, capsys):
    (tmp_path / "chosen_lr.json").write_text('{"learning_rate": 1e-05, "step": 10}')
    (tmp_path / "bad.yaml").write_text("learning_rate: 3e-05\n")  # YAML 1.1 reads this as a string, not a number
    (tmp_path / "none.yaml").write_text("step: 10\n")

    def error(msg):
        raise SystemExit(msg)

    assert cmp.sweep_choice(tmp_path / "chosen_lr.json", error) == 1e-5
    assert cmp.sweep_choice(ROOT / "recipes/configs/smollm2-135m/compare_lr.yaml", error) == 3e-5
    with pytest.raises(SystemExit, match="none.yaml: `learning_rate` must be a positive number; got None"):
        cmp.sweep_choice(tmp_path / "none.yaml", error)
    with pytest.raises(SystemExit, match="missing.yaml"):
        cmp.sweep_choice(tmp_path / "missing.yaml", error)
    assert cmp.sweep_choice(tmp_path / "bad.yaml", error) == 3e-5  # float() reads the string

def test_named_sets_last_step_scoring_and_per_method_rates_are_parsed_and_checked(tmp_path, capsys):
    """--bench NAME=DIR and --heldout NAME=SPLIT_OR_DIR, each repeatable; --keep-every with the evaluation at the
    last step only; --lr-per-method reads each method's own choice of a sweep. A bad one is an error naming the flag
    (or the file and key)."""
    cli = _cli()
    for b in ("b1", "b2"):
        (tmp_path / b / "states").mkdir(parents=True)
    harbor_task(tmp_path / "mine" / "m-00")
    (tmp_path / "sft").mkdir()
    (tmp_path / "sft" / "config.json").write_text("{}")  # a checkpoint, as far as parsing asks
    base = ["--sft", str(tmp_path / "sft"), "--out", str(tmp_path / "o")]
    a = cli.parse_args(base + ["--bench", f"in={tmp_path / 'b1'}", "--bench", f"out={tmp_path / 'b2'}",
                               "--heldout", "train=compare_fresh_train", "--heldout", f"mine={tmp_path / 'mine'}",
                               "--steps", "100", "--eval-every", "100", "--keep-every", "20", "--max-heldout", "5"])
    assert a.benches == {"in": tmp_path / "b1", "out": tmp_path / "b2"} and a.bench == tmp_path / "b1"
    assert a.save_every == 20 and cmp.stops(a.steps, a.eval_every) == [100]  # trained straight through to 100
    sets = cli.heldout_sets(a)
    assert list(sets) == ["train", "mine"] and [t.id for t in sets["mine"]] == ["m-00"]
    assert [t.id for t in sets["train"]] == sorted(t.id for t in suites.load("basic", "compare_fresh_train"))[:5]
    # one bare --bench is named after its folder; without --heldout the one set is --split (or the suite folder)
    a = cli.parse_args(base + ["--bench", str(tmp_path / "b1"), "--split", "heldout_novel", "--max-heldout", "1"])
    assert a.benches == {"b1": tmp_path / "b1"} and list(cli.heldout_sets(a)) == ["heldout_novel"]
    a = cli.parse_args(base + ["--bench", str(tmp_path / "b1"), "--suite", str(tmp_path / "mine")])
    assert list(cli.heldout_sets(a)) == ["mine"]
    (tmp_path / "sweep.json").write_text(json.dumps({"learning_rate": 3e-5, "by_method": {
        "plain+done": {"learning_rate": 1e-5}, "reterm:first:skip+done": {"learning_rate": 3e-5}}}))
    a = cli.parse_args(base + ["--bench", str(tmp_path / "b1"), "--methods", "plain+done", "reterm:first:skip+done",
                               "--lr-from", str(tmp_path / "sweep.json"), "--lr-per-method"])
    assert a.lr_from_rates == {"plain+done": 1e-5, "reterm:first:skip+done": 3e-5} and a.lr_from_rate == 3e-5
    bench = ["--bench", f"in={tmp_path / 'b1'}"]
    for extra, needle in (
            (["--bench", f"in={tmp_path / 'b2'}"], "the name in is given twice"),
            (["--bench", f"x={tmp_path / 'none'}"], f"--bench: {tmp_path / 'none' / 'states'} does not exist"),
            (["--heldout", "train"], "--heldout train: expected NAME=VALUE"),
            (["--heldout", "t=no_such_split"], "--heldout t=no_such_split: neither a split"),
            (["--heldout", "t=train", "--split", "train"], "--split and --heldout exclude each other"),
            (["--eval-every", "100", "--save-every", "10", "--keep-every", "15"],
             "--keep-every 15 must be a multiple of --save-every 10"),
            (["--lr-per-method"], "--lr-per-method reads a sweep's choice: give --lr-from"),
            (["--methods", "plain", "--lr-from", str(tmp_path / "sweep.json"), "--lr-per-method"],
             "sweep.json: `by_method.plain.learning_rate` must be a positive number"),
            (["--analysis-margin", "-0.05"], "--analysis-margin is a size")):
        with pytest.raises(SystemExit):
            cli.parse_args(base + bench + extra)
        err = capsys.readouterr().err
        assert needle in err, (extra, err)


def test_a_sweep_chooses_each_methods_rate_on_its_own_rows():
    """design.md section 3: `choose_lr` on one method's rows. Pooled, 3e-5 wins (ReTerm's gain at it outweighs plain
    GRPO's loss); each on its own, plain GRPO keeps 1e-5."""
    rows = [{"method": cmp.arm_name(m, lr), "lr": lr, "step": 20, "overall": {"rate": r}, "pass@1": {"rate": 0.9}}
            for m, lr, r in (("plain", 1e-5, 0.40), ("plain", 3e-5, 0.30), ("reterm:first:skip", 1e-5, 0.40),
                             ("reterm:first:skip", 3e-5, 0.70))]
    assert cmp.choose_lr(rows, [1e-5, 3e-5])["learning_rate"] == 3e-5
    by = cmp.choose_lr_by_method([{"method": "sft", "step": 0}, *rows], [1e-5, 3e-5],
                                 ["plain", "reterm:first:skip", "plain+done"])
    assert {m: c["learning_rate"] for m, c in by.items()} == {"plain": 1e-5, "reterm:first:skip": 3e-5}
    assert by["plain"]["scores"] == {"1e-05": 0.65, "3e-05": 0.6}


def test_the_checkpoints_kept_every_n_steps_survive_the_prune_unevaluated(tmp_path):
    run = tmp_path / "run"
    for step in (10, 20, 30, 40, 50, 60):
        (run / f"checkpoint-{step}").mkdir(parents=True)
        (run / f"checkpoint-{step}" / "optimizer.pt").write_text("x")
    (run / "DONE").write_text("")
    assert list(cmp.checkpoints(run, 60, 60)) == [60]  # evaluated: the last step only
    cmp.prune(run, 60, 60, keep_every=20)
    assert sorted(p.name for p in run.glob("checkpoint-*")) == ["checkpoint-20", "checkpoint-40", "checkpoint-60"]
    assert not list(run.glob("checkpoint-*/optimizer.pt"))


def test_the_confirm_job_freezes_its_benchmarks_chooses_each_rate_and_scores_the_arms_as_designed(tmp_path):
    """recipes/configs/smollm2-135m/confirm_job.yaml against benchmarks/confirm/design.md sections 2-5 and 9: every
    stage's command resolves, recipe/compare.py accepts it, and what it asks for is the design's; --quick gives toy
    sizes of the same commands."""
    start = tmp_path / "sft2"
    start.mkdir()
    (start / "config.json").write_text("{}")  # a checkpoint, as far as parsing asks
    config = ROOT / "recipes/configs/smollm2-135m/confirm_job.yaml"
    methods = ["plain+done", "reterm:first:skip+done", "plain"]
    parsed = {}
    for quick in (False, True):
        run = tmp_path / f"run-{quick}"
        job = jobs.load_job(config, quick=quick, run_dir=str(run), overrides=[f"start={start}", "engine=transformers"])
        argv = {s.name: jobs.resolve(job, s) for s in job.stages}
        # the benchmarks frozen first (rule 4 reads them), then the design locked, and only then anything trains
        assert list(argv) == ["lr_bench", "bench_in", "bench_out", "lr_slice", "b_in", "b_out", "design", "lr_choice",
                              "arms", "analysis"]
        # what the arms score: each frozen benchmark thinned by state ids to the size an evaluation affords
        for name, src, n in (("lr_slice", "lr_bench", 120), ("b_in", "bench_in", 160), ("b_out", "bench_out", 120)):
            assert argv[name][1:] == ["recovery-bench", "thin", str(run / src), "--max-states", str(n), "--out",
                                      str(run / name / "bench")]
        assert argv["design"][1:] == ["-m", "reterm.evaluation.design_lock", "lock", "benchmarks/confirm/design.md",
                                      str(run / "design")] + (["--allow-draft"] if quick else [])
        assert argv["arms"][argv["arms"].index("--design") + 1] == str(run / "design" / "design.md")
        design_at = argv["analysis"].index("--design")
        assert argv["analysis"][design_at + 1] == str(run / "design" / "design.md")
        for name in ("lr_slice", "b_in", "b_out"):
            (run / name / "bench" / "states").mkdir(parents=True)
        (run / "lr_choice").mkdir()
        (run / "lr_choice" / "chosen_lr.json").write_text(json.dumps(
            {"learning_rate": 3e-5,
             "by_method": {m: {"learning_rate": r} for m, r in zip(methods, (1e-5, 3e-5, 1e-5))}}))
        for name in ("lr_choice", "arms"):
            assert argv[name][1] == "recipes/compare.py"
            parsed[quick, name] = _cli().parse_args([str(ROOT / x) if x.startswith("recipes/configs/") else x
                                                     for x in argv[name][2:]])
        if not quick:
            flags = {name: " ".join(argv[name]) for name in ("lr_bench", "bench_in", "bench_out")}
            assert "--split train --samples 6 --max-states-per-episode 2 --max-family-share 0.1" in flags["lr_bench"]
            assert "--split compare_fresh_train --samples 10 --max-states-per-episode 2 --max-family-share 0.1" in \
                flags["bench_in"]
            assert "--split compare_fresh_heldout --samples 10 --max-states-per-episode 2 --max-family-share 0.1" in \
                flags["bench_out"]
            assert all(f"--model {start}" in f for f in flags.values())
            assert argv["analysis"][-4:-2] == ["--margin", "0.08"] and argv["analysis"][3] == str(run / "arms")
            assert design_at == len(argv["analysis"]) - 2
        lr, arms = parsed[quick, "lr_choice"], parsed[quick, "arms"]
        assert lr.sft == arms.sft == start and lr.methods == arms.methods == methods
        assert lr.learning_rates == [1e-5, 3e-5] and lr.seeds == [100] and not set(lr.seeds) & set(arms.seeds)
        assert lr.benches == {"bench": run / "lr_slice" / "bench"} and lr.suite == str(run / "tasks" / "train_pass")
        assert arms.benches == {"in": run / "b_in" / "bench", "out": run / "b_out" / "bench"}
        assert arms.heldout == {"train": "compare_fresh_train", "heldout": "compare_fresh_heldout"}
        assert arms.lr_from_rates == dict(zip(methods, (1e-5, 3e-5, 1e-5))) and arms.reference == "plain+done"
        assert arms.rotate and arms.analysis_margin == 0.08 and lr.eval_seed == arms.eval_seed == 0
        assert cmp.eval_settings(lr.config, lr.recipe_args) == cmp.eval_settings(arms.config, arms.recipe_args)
        assert [(x.token_budget, x.refill_tries, x.config) for x in (lr, arms)] == [
            (lr.token_budget, lr.refill_tries, lr.config)] * 2
    lr, arms = parsed[False, "lr_choice"], parsed[False, "arms"]
    assert (lr.steps, lr.eval_every, lr.k, lr.samples) == (20, 20, 4, 2)
    assert (arms.steps, arms.eval_every, arms.keep_every, arms.k, arms.samples) == (100, 100, 50, 4, 2)
    assert arms.seeds == list(range(10)) and (arms.token_budget, arms.refill_tries) == (3072, 12)
    assert (arms.concurrency, arms.engine_batch, lr.engine_batch) == (16, 64, None)  # lr_choice as it began
    assert arms.max_heldout is None and {k: len(v) for k, v in _cli().heldout_sets(arms).items()} == {
        "train": 117, "heldout": 72}
    train_pass = _cli().heldout_sets(lr)["train_pass"]
    assert len(train_pass) == 2 * len({t.family for t in train_pass}) == 78  # 2 instances of each training family
    settings = cmp.eval_settings(arms.config, arms.recipe_args)
    assert settings["recovery_turns"] == 6 and settings["task_turns"] == 9
    q = parsed[True, "arms"]
    assert q.seeds == [0, 1] and q.steps == 1 and q.max_heldout == 2 and "--max_new_tokens_per_turn" in q.recipe_args
    assert jobs.load_job(config).settings["start"] == "/root/reterm-main/sft2"
    # days of runs: the job runs the commit it first started with (reterm/code_pin.py); its toy runs do not pin
    assert jobs.job_home(config, run_dir=str(tmp_path / "r"), overrides=["engine=transformers"]) == (
        tmp_path / "r", True)
    assert jobs.job_home(config, quick=True, overrides=["engine=transformers"])[1] is False


@pytest.mark.slow
@pytest.mark.background
@pytest.mark.timeout(2400)
def test_toy_confirmatory_arms_are_scored_at_the_last_step_on_every_named_set(tmp_path, tiny_model_dir, tokenizer):
    """The arms of the confirm job at toy scale: two methods at their own rates, two seeds in a rotating order, two
    steps trained straight through (a checkpoint kept at step 1, unevaluated), step 2 scored on two benchmarks and two
    held-out sets, each apart in the evaluation; the confirmatory analysis rewritten after every run."""
    backend = get_backend("local")
    for name in ("bin", "bout"):
        task = load_task(harbor_task(tmp_path / f"tasks-{name}" / f"{name}-f00"))
        failing = ReplayPolicy(["```bash\ncd /app && cat /app/notes.txt\n```", "TASK_COMPLETE"], tokenizer)
        rb.build(failing, [task], backend, tmp_path / name, EpisodeConfig(max_turns=2))
    (tmp_path / "sweep.json").write_text(json.dumps({"learning_rate": 3e-5, "by_method": {
        "plain+done": {"learning_rate": 1e-5}, "reterm:first:skip+done": {"learning_rate": 3e-5}}}))
    out = tmp_path / "arms"
    argv = ["--sft", str(tiny_model_dir), "--bench", f"in={tmp_path / 'bin'}", "--bench", f"out={tmp_path / 'bout'}",
            "--heldout", "train=compare_fresh_train", "--heldout", f"heldout={tmp_path / 'tasks-bout'}",
            "--max-heldout", "1", "--out", str(out), "--steps", "2", "--eval-every", "2", "--keep-every", "1",
            "--seeds", "0", "1", "--methods", "plain+done", "reterm:first:skip+done", "--reference", "plain+done",
            "--rotate", "--lr-from", str(tmp_path / "sweep.json"), "--lr-per-method", "--analysis-margin", "0.05",
            "-k", "2", "--token-budget", "256", "--refill-tries", "2", "--concurrency", "2", "--policy", "transformers",
            "--", "--max_new_tokens_per_turn", "8", "--max_scout_turns", "1", "--max_recovery_turns", "1",
            "--num_generations", "2", "--per_device_train_batch_size", "2", "--sandbox_concurrency", "4"]
    assert _cli().main(argv) == 0
    import torch

    names = {("plain+done", 0): "plain-done-lr1e-05-s0", ("plain+done", 1): "plain-done-lr1e-05-s1",
             ("reterm:first:skip+done", 0): "reterm-first-skip-done-lr3e-05-s0",
             ("reterm:first:skip+done", 1): "reterm-first-skip-done-lr3e-05-s1"}
    done = {k: (out / "runs" / n / "DONE").stat().st_mtime for k, n in names.items()}
    assert done[("plain+done", 0)] < done[("reterm:first:skip+done", 0)]  # seed 0 in the order given
    assert done[("reterm:first:skip+done", 1)] < done[("plain+done", 1)]  # seed 1 starts with the second
    for (method, seed), name in names.items():
        run, ev_dir = out / "runs" / name, out / "eval" / name
        targs = torch.load(run / "checkpoint-2" / "training_args.bin", weights_only=False)
        assert targs.learning_rate == (1e-5 if method == "plain+done" else 3e-5) and targs.seed == seed
        assert targs.penalty_undeclared_pass == 1.0
        # the checkpoint of step 1 is kept, not evaluated; neither keeps its optimizer state
        assert sorted(p.name for p in run.glob("checkpoint-*")) == ["checkpoint-1", "checkpoint-2"]
        assert not list(run.glob("checkpoint-*/optimizer.pt"))
        assert sorted(p.name for p in ev_dir.glob("step-*.json")) == ["step-2.json"]
        ev = json.loads((ev_dir / "step-2.json").read_text())
        sets = ev["sets"]
        assert set(sets["recovery"]) == {"in", "out"} and set(sets["heldout"]) == {"train", "heldout"}
        assert {s.split("-f00")[0] for s in sets["recovery"]["in"]["per_state"]} == {"bin"}
        assert {s.split("-f00")[0] for s in sets["recovery"]["out"]["per_state"]} == {"bout"}
        assert list(sets["heldout"]["heldout"]["per_task"]) == ["bout-f00"]
        assert list(sets["heldout"]["train"]["per_task"]) == [
            sorted(t.id for t in suites.load("basic", "compare_fresh_train"))[0]]
        assert ev["recovery"]["per_state"] == sets["recovery"]["in"]["per_state"]
        assert ev["heldout"]["per_task"] == sets["heldout"]["train"]["per_task"]
        for part in ("recovery", "heldout"):
            for counts in sets[part].values():
                assert len(counts["declared_done"]) == 2
        from reterm.evaluation.hierarchical import seed_results

        assert [u.attempts for u in seed_results(ev, "recovery", "out")] == [2]  # k=2 on its one state
        for f in ("step-2.attempts.jsonl", "step-2.out.attempts.jsonl", "step-2.heldout.jsonl.gz",
                  "step-2.heldout.heldout.jsonl.gz"):
            assert (ev_dir / f).stat().st_size > 0, f
    res = json.loads((out / "results.json").read_text())
    assert res["plan"] == {"steps": 2, "methods": ["plain+done", "reterm:first:skip+done"], "seeds": [0, 1]}
    assert {(r["method"], r["step"]) for r in res["rows"]} == {
        ("sft", 0), ("plain+done@lr1e-05", 2), ("reterm:first:skip+done@lr3e-05", 2)}
    analysis = json.loads((out / "analysis.json").read_text())
    assert analysis["complete"] and analysis["finished"] == {"plain+done": [0, 1], "reterm:first:skip+done": [0, 1]}
    primary = analysis["contrasts"][0]
    assert (primary["a"], primary["b"]) == ("reterm:first:skip+done", "plain+done")
    assert [primary["endpoints"][k]["comparison"]["seeds"] for k in ("E1", "E2", "E3", "E4")] == [[2, 2]] * 4
    assert primary["endpoints"]["E3"]["comparison"]["states"] == 1
    assert "**Final**: every planned run (4 of 4) evaluated at step 2" in (out / "analysis.md").read_text()
    assert (out / "analysis.png").read_bytes()[:4] == b"\x89PNG"
