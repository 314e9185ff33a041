"""FailureState and its one file schema (round trips, files written before the schema had a version), and the choice
of fork points from a trajectory (reterm/failures/)."""

from __future__ import annotations

import json
import random

import pytest

from conftest import get_backend, harbor_task
from reterm.agent.trajectory import Trajectory, Turn
from reterm.failures import fork_points
from reterm.failures.state import SCHEMA_VERSION, STATE_FILE, FailureState, FailureStateError, load_jsonl
from reterm.tasks import load_task


class _Snap:
    def __init__(self, name):
        self.name, self.released = name, False

    def release(self):
        self.released = True


def _scout(said_done: bool, labels=("wrong_path", "ok", "syntax_error", "ok")):
    t = Trajectory(task_id="x", model="m", format="simple")
    t.messages = [{"role": "system", "content": "s"}, {"role": "user", "content": "task"}]
    for i, lab in enumerate(labels):
        t.messages += [{"role": "assistant", "content": f"r{i}"}, {"role": "user", "content": f"o{i}"}]
        t.turns.append(Turn(i, f"r{i}", label=lab, observation=f"o{i}",
                            snapshot_id=f"s{i}" if lab != "ok" else None, said_done=said_done and i == len(labels) - 1))
    t.snapshots = {f"s{i}": _Snap(f"s{i}") for i, lab in enumerate(labels) if lab != "ok"}
    t.reward, t.passed = 0.0, False
    return t


@pytest.mark.parametrize("point,said_done,order", [
    ("first", False, ["s0", "s2", "final"]),
    ("last", False, ["s2", "s0", "final"]),
    ("final", True, ["final", "s2", "s0"]),
    ("final", False, ["s2", "s0", "final"]),
])
def test_fork_point_strategies(point, said_done, order):
    traj = _scout(said_done)
    snaps = dict(traj.snapshots)
    final = _Snap("final")
    states = fork_points.choose(traj, None, point, random.Random("t"), final_snapshot=final)
    assert [s.snapshot.name for s in states] == order
    by_name = {s.snapshot.name: s for s in states}
    assert by_name["s2"].history[-1] == {"role": "user", "content": "o2"} and len(by_name["s2"].history) == 8
    assert by_name["s2"].category == "syntax_error" and by_name["s2"].turn == 2
    assert "did not pass" in by_name["final"].history[-1]["content"]
    assert not any(s.released for s in [*snaps.values(), final])  # handed over, to be released by the caller
    # a passing scout hands back nothing and releases everything
    traj = _scout(False)
    snaps = dict(traj.snapshots)
    traj.passed, traj.reward = True, 1.0
    final = _Snap("final")
    assert fork_points.choose(traj, None, point, random.Random("t"), final_snapshot=final) == [] and final.released
    assert all(s.released for s in snaps.values())


def test_random_fork_points_follow_the_rng():
    draws = [[s.turn for s in fork_points.choose(_scout(False, ["wrong_path"] * 6), None, "random",
                                                 random.Random(seed))] for seed in ("a", "a", "b")]
    assert draws[0] == draws[1] and sorted(draws[0]) == list(range(6)) and draws[0] != draws[2]


def test_a_limit_prefers_categories_not_taken_yet_and_releases_the_rest():
    traj = _scout(False, ["wrong_path", "wrong_path", "wrong_path", "syntax_error", "timeout"])
    snaps = dict(traj.snapshots)
    states = fork_points.choose(traj, None, "first", limit=3)
    assert [(s.turn, s.category) for s in states] == [(0, "wrong_path"), (3, "syntax_error"), (4, "timeout")]
    assert [n for n, s in sorted(snaps.items()) if s.released] == ["s1", "s2"]


def _state(**kw) -> FailureState:
    base = dict(id="t-t0", task_id="t", task_path="/tasks/t", history=[{"role": "system", "content": "s"},
                {"role": "user", "content": "task"}, {"role": "assistant", "content": "ls /nope"},
                {"role": "user", "content": "No such file"}], turn=0, category="wrong_path",
                evidence="No such file", source="synthesized", family="f", steps=["ls /nope"], seed=3)
    return FailureState(**{**base, **kw})


def test_a_state_round_trips_through_its_json_record(tmp_path):
    state = _state()
    d = state.to_dict()
    assert d["version"] == SCHEMA_VERSION and "snapshot" not in d
    path = tmp_path / "states.jsonl"
    path.write_text(json.dumps({"key": state.id, **d}) + "\n" + json.dumps({"key": "x", "skipped": True}) + "\n")
    [back] = load_jsonl(path)
    assert back == state


def test_a_state_folder_round_trips_with_its_snapshot(tmp_path):
    backend = get_backend("local")
    task = load_task(harbor_task(tmp_path / "tasks" / "t"))
    with backend.start(task) as sb:
        sb.exec("cd /app && echo kept > marker && export WHO=agent")
        snap = sb.snapshot()
    state = _state(task_id=task.id, task_path=str(task.path), source="collected", steps=None, snapshot=snap)
    state.save_dir(tmp_path / "states" / state.id)
    state.release()
    assert snap.released and not list((tmp_path / "states").glob(".*"))  # no temporary folder left
    back = FailureState.load_dir(tmp_path / "states" / state.id)
    assert back.history == state.history and back.exported.backend == "local"
    with back.restore(backend) as restored:
        [box] = restored.fork(1)
    try:
        assert box.exec("cat marker; pwd; echo $WHO").output == "kept\n/app\nagent\n"
    finally:
        box.close()
    # the same record as a shard row elsewhere: the snapshot's file is named relative to the row's folder
    row = tmp_path / "rows.jsonl"
    row.write_text(json.dumps({"key": back.id, **back.to_dict(relative_to=tmp_path)}) + "\n")
    assert json.loads(row.read_text())["exported"]["file"] == f"states/{state.id}/{back.exported.file}"
    assert load_jsonl(row)[0].directory / load_jsonl(row)[0].exported.file == back.directory / back.exported.file


OLD_BENCH_STATE = {"id": "t-t0", "task_id": "t", "task_path": "/tasks/t", "category": "wrong_path", "family": "f",
                   "task_category": "c", "turn": 0, "format": "simple", "model": "m",
                   "history": [{"role": "system", "content": "s"}, {"role": "user", "content": "No such file"}],
                   "backend": "local", "snapshot_file": "fs.tar", "spec": {"task_id": "t"}}


def test_files_written_before_the_schema_had_a_version_still_load(tmp_path):
    d = tmp_path / "states" / "t-t0"
    d.mkdir(parents=True)
    (d / STATE_FILE).write_text(json.dumps(OLD_BENCH_STATE))
    bench = FailureState.load_dir(d)
    assert (bench.category, bench.turn, bench.exported.file, bench.exported.backend) == ("wrong_path", 0, "fs.tar",
                                                                                          "local")
    assert bench.evidence == "No such file" and bench.directory == d
    synth = {"key": "t:skip_step:0", "task_id": "t", "task_path": "/tasks/t", "family": "f", "task_category": "c",
             "perturbation": "skip_step", "seed": 0, "steps": ["ls /nope"], "fork_turn": 0,
             "error_category": "wrong_path", "error_output": "No such file",
             "messages": OLD_BENCH_STATE["history"], "source": "synthesized"}
    collected = {"key": "t-t0", "task_id": "t", "task_path": "/tasks/t", "family": "f",
                 "messages": OLD_BENCH_STATE["history"], "error_category": "wrong_path", "error_output": "x",
                 "fork_turn": 0, "source": "collected", "state_dir": str(d), "model": "m"}
    rows = tmp_path / "old.jsonl"
    rows.write_text("".join(json.dumps(r) + "\n" for r in (synth, {"key": "episode:t", "skipped": True}, collected)))
    s, c = load_jsonl(rows)
    assert (s.id, s.steps, s.turn, s.category, s.evidence, s.perturbation) == ("t:skip_step:0", ["ls /nope"], 0,
                                                                                "wrong_path", "No such file",
                                                                                "skip_step")
    assert c.source == "collected" and c.directory / c.exported.file == d / "fs.tar" and c.model == "m"


@pytest.mark.parametrize("record,message", [
    ({"version": 99, "id": "x"}, "version 99"),
    ({"id": "x", "task_id": "t"}, "not a failure state record"),
    ({"error_category": "wrong_path", "key": "k", "task_id": "t", "fork_turn": 0}, "without history"),
    ({"version": SCHEMA_VERSION, "id": "x", "task_id": "t", "turn": 0, "category": "c",
      "history": [{"role": "assistant", "content": "a"}]}, "must end with the failing turn's observation"),
])
def test_unreadable_records_name_the_file_and_what_to_rerun(tmp_path, record, message):
    path = tmp_path / "states.jsonl"
    path.write_text(json.dumps({"key": "k0", "skipped": True}) + "\n" + json.dumps(record) + "\n")
    with pytest.raises(FailureStateError, match=message) as e:
        load_jsonl(path)
    assert f"{path}:2" in str(e.value) and "data_pipeline.synthesize" in str(e.value)


def test_recover_refuses_an_unreadable_states_file_and_says_what_to_rerun(tmp_path, capsys):
    from data_pipeline.recover import main as recover_main

    states = tmp_path / "synth.jsonl"
    states.write_text(json.dumps({"key": "t:typo:0", "messages": []}) + "\n")
    assert recover_main(["--states", str(states), "--out", str(tmp_path / "r.jsonl")]) == 2
    err = capsys.readouterr().err
    assert f"{states}:1" in err and "data_pipeline.synthesize" in err
    assert not (tmp_path / "r.jsonl").exists()


def test_recover_names_a_state_whose_task_is_gone_and_an_out_it_cannot_write(oracle_states, tmp_path, capsys,
                                                                             monkeypatch):
    """A state whose task folder was moved or deleted, a --states that is a folder or not text, and an --out that
    cannot be a shard are refused before any sandbox starts, each named; no output is made."""
    from data_pipeline.recover import main as recover_main
    from reterm.sandbox.local import LocalBackend

    started = []
    monkeypatch.setattr(LocalBackend, "start", lambda self, task, *a, **k: started.append(task.id))

    first = json.loads(next(l for l in oracle_states.read_text().splitlines() if '"skipped"' not in l))
    gone = tmp_path / "gone.jsonl"
    gone.write_text(json.dumps({**first, "task_path": str(tmp_path / "moved-away")}) + "\n")
    binary = tmp_path / "bin.jsonl"
    binary.write_bytes(b"\xff\xfe\n")
    cases = [(["--states", str(gone), "--out", str(tmp_path / "r.jsonl")],
              f"{gone}: the task of state {first['key']} does not load"),
             (["--states", str(tmp_path), "--out", str(tmp_path / "r.jsonl")], "is a directory, not a shard file"),
             (["--states", str(binary), "--out", str(tmp_path / "r.jsonl")], f"{binary}: not UTF-8 text"),
             (["--states", str(oracle_states), "--out", str(tmp_path)], "is a directory; a step's --out")]
    for argv, why in cases:
        assert recover_main([*argv, "--tokenizer", "none"]) == 2
        err = capsys.readouterr().err
        assert why in err, err
    assert not (tmp_path / "r.jsonl").exists()
    # a state already recovered is not run again, so its task need not load any more (a resumed run)
    out = tmp_path / "r.jsonl"
    out.write_text(json.dumps({"key": f"{first['key']}:oracle:0", "passed": False, "infra_error": None}) + "\n")
    assert recover_main(["--states", str(gone), "--out", str(out), "--tokenizer", "none"]) == 0
    assert started == []  # no sandbox was asked for
