"""The recovery benchmark end to end: freeze failure states, export them portably, restore, fork, continue."""

from __future__ import annotations

import json

import pytest

from conftest import get_backend, harbor_task
from reterm.evaluation import recovery_bench as rb
from reterm.agent.episode import EpisodeConfig
from reterm.agent.policy import ReplayPolicy
from reterm.tasks import load_task


@pytest.mark.parametrize("backend_name", ["local", "docker"])
def test_build_then_evaluate_recovery(backend_name, tmp_path, tokenizer):  # noqa: F811
    backend = get_backend(backend_name)
    task = load_task(harbor_task(tmp_path / "tasks" / "write-ok"))
    failing = ReplayPolicy(["```bash\ncd /app && cat /app/notes.txt\n```", "TASK_COMPLETE"], tokenizer)
    summary = rb.build(failing, [task], backend, tmp_path / "bench", EpisodeConfig(max_turns=4))
    assert summary["episodes"] == {"n": 1, "failed": 1, "passed": 0, "infra": 0}
    assert summary["by_category"] == {"wrong_path": 1}
    [state] = rb.load_states(tmp_path / "bench")
    assert state.history[-1]["role"] == "user" and "No such file" in state.history[-1]["content"]
    assert state.exported.spec["shell_state"]["cwd"] == "/app"  # the shell state travels with the filesystem

    # A policy that fixes the problem recovers in every fork; one that gives up never does.
    fixer = ReplayPolicy(["(history)", "```bash\necho ok > out.txt\n```", "TASK_COMPLETE"], tokenizer)
    report = rb.evaluate(fixer, tmp_path / "bench", backend, 3, EpisodeConfig(max_turns=4))
    assert report["by_category"]["wrong_path"] == {"states": 1, "attempts": 3, "recovered": 3, "infra_errors": 0,
                                                   "recovery_rate": 1.0, "ci95": [0.4385, 1.0]}  # 3/3 is no proof of 1.0
    # every attempt says what it did and why it ended, for reading why a state was (not) recovered
    assert [(a["commands"], a["stop_reason"], a["turns"]) for a in report["attempts"]] == \
        [(["echo ok > out.txt"], "done", 2)] * 3
    quitter = ReplayPolicy(["(history)", "TASK_COMPLETE"], tokenizer)
    report = rb.evaluate(quitter, tmp_path / "bench", backend, 2, EpisodeConfig(max_turns=4))
    assert report["by_category"]["wrong_path"]["recovery_rate"] == 0.0
    rb.plot(report, tmp_path / "r.png", "test")
    assert (tmp_path / "r.png").read_bytes()[:4] == b"\x89PNG"


def test_several_samples_a_task_give_states_named_by_their_episode(tmp_path, tokenizer):  # noqa: F811
    task = load_task(harbor_task(tmp_path / "tasks" / "t"))
    failing = ReplayPolicy(["```bash\nls /nope\n```", "TASK_COMPLETE"], tokenizer)
    summary = rb.build(failing, [task], get_backend("local"), tmp_path / "bench", EpisodeConfig(max_turns=3),
                       samples=3)
    assert summary["episodes"]["n"] == 3 and summary["states"] == 3
    states = rb.load_states(tmp_path / "bench")
    assert sorted(s.id for s in states) == ["t-s0-t0", "t-s1-t0", "t-s2-t0"]
    assert {s.task_id for s in states} == {"t"}


def test_evaluating_on_the_wrong_backend_is_a_clear_error(tmp_path, tokenizer):  # noqa: F811
    task = load_task(harbor_task(tmp_path / "tasks" / "t"))
    rb.build(ReplayPolicy(["```bash\nls /nope\n```", "TASK_COMPLETE"], tokenizer), [task], get_backend("local"),
             tmp_path / "bench", EpisodeConfig(max_turns=3))
    with pytest.raises(ValueError, match="--backend local"):
        rb.evaluate(ReplayPolicy([], tokenizer), tmp_path / "bench", get_backend("docker"), 1, EpisodeConfig())


def test_report_counts_infra_failures_apart():
    attempts = [{"state": "s", "category": "wrong_path", "attempt": 0, "passed": True, "infra_error": None},
                {"state": "s", "category": "wrong_path", "attempt": 1, "passed": False, "infra_error": "boom"},
                {"state": "s", "category": "wrong_path", "attempt": 2, "passed": False, "infra_error": None}]
    r = rb.recovery_report(attempts, 3)["by_category"]["wrong_path"]
    assert r["recovery_rate"] == 0.5 and r["infra_errors"] == 1
    json.dumps(r)


def test_balance_caps_every_family_at_its_share_spread_over_its_instances():
    from collections import Counter

    from reterm.evaluation.recovery_bench import balance

    rows = [{"id": f"{f}-{t}-t{i}", "family": f, "task_id": f"{f}-{t}"}
            for f, n in [("big", 40), ("b", 5), ("c", 5), ("d", 5), ("e", 5), ("f", 3)]
            for i in range(n) for t in [i % 4]]
    kept, dropped = balance(rows, 0.2)
    per_family = Counter(r["family"] for r in kept)
    assert max(per_family.values()) <= 0.2 * len(kept) and len(kept) + len(dropped) == len(rows)
    assert per_family["big"] == 5 and per_family["f"] == 3  # only what is over the cap goes
    assert len({r["task_id"] for r in kept if r["family"] == "big"}) == 4  # every instance of the family stays
    assert balance(rows, 1.0) == (sorted(rows, key=lambda r: r["id"]), [])


def test_thin_keeps_every_family_and_instance_it_can_and_links_the_states(tmp_path):
    """`reterm recovery-bench thin`: a smaller benchmark chosen by ids alone, families then instances in turn; the
    states' files shared with the source; a bad source named; an earlier thinning replaced, never half-written."""
    from collections import Counter

    from click.testing import CliRunner

    from reterm.cli import main

    rows = [{"id": f"{f}-{t}-s{i}-t3", "family": f, "task_id": f"{f}-{t}", "category": "syntax_error" if i % 2 else
             "wrong_path", "turn": 3} for f, n in [("big", 30), ("b", 6), ("c", 2)] for i in range(n)
            for t in [i % 3]]
    src = tmp_path / "bench"
    for r in rows:
        (src / "states" / r["id"]).mkdir(parents=True)
        (src / "states" / r["id"] / "state.json").write_text(json.dumps(r))
    (src / "manifest.json").write_text(json.dumps({"episodes": {"n": 9}, "states": len(rows), "states_list": rows}))

    kept = rb.thin_rows(rows, 10)
    fams = Counter(r["family"] for r in kept)
    assert len(kept) == 10 and fams == {"big": 4, "b": 4, "c": 2}  # in turn: the small family keeps all it has
    assert len({r["task_id"] for r in kept if r["family"] == "big"}) == 3  # spread over the family's instances
    assert rb.thin_rows(rows, 1000) == sorted(rows, key=lambda r: r["id"])
    assert rb.thin_rows(list(reversed(rows)), 10) == kept  # ids alone decide
    mixed = [{**r, "family": None} if r["family"] == "c" else r for r in rows]  # tasks that name no family
    assert Counter(r["family"] for r in rb.thin_rows(mixed, 10)) == {"big": 4, "b": 4, None: 2}
    msrc = tmp_path / "mixed"
    for r in mixed:
        (msrc / "states" / r["id"]).mkdir(parents=True)
    (msrc / "manifest.json").write_text(json.dumps({"episodes": {"n": 9}, "states": len(mixed), "states_list": mixed}))
    assert rb.thin(msrc, tmp_path / "mixed-small", 10)["by_family"] == {None: 2, "b": 4, "big": 4}

    out = tmp_path / "small"
    res = CliRunner().invoke(main, ["recovery-bench", "thin", str(src), "--max-states", "10", "--out", str(out)])
    assert res.exit_code == 0, res.output
    manifest = json.loads((out / "manifest.json").read_text())
    assert [r["id"] for r in manifest["states_list"]] == [r["id"] for r in kept]
    assert manifest["thinned_from"] == {"bench": str(src), "states": len(rows), "max_states": 10}
    assert sorted(p.name for p in (out / "states").iterdir()) == [r["id"] for r in kept]
    first = kept[0]["id"]
    assert (out / "states" / first / "state.json").stat().st_ino == (src / "states" / first / "state.json").stat().st_ino
    res = CliRunner().invoke(main, ["recovery-bench", "thin", str(src), "--max-states", "4", "--out", str(out)])
    assert res.exit_code == 0 and len(list((out / "states").iterdir())) == 4  # replaced whole

    (src / "states" / rows[0]["id"] / "state.json").unlink()
    (src / "states" / rows[0]["id"]).rmdir()
    res = CliRunner().invoke(main, ["recovery-bench", "thin", str(src), "--max-states", "60", "--out",
                                    str(tmp_path / "broken")])
    assert res.exit_code != 0 and rows[0]["id"] in res.output and "missing" in res.output
    assert not (tmp_path / "broken").exists() and not list(tmp_path.glob(".broken*"))
    res = CliRunner().invoke(main, ["recovery-bench", "thin", str(src), "--max-states", "60", "--out",
                                    str(tmp_path / "newparent" / "t")])
    assert res.exit_code != 0 and not (tmp_path / "newparent").exists()  # no folder made for a refused thinning
    res = CliRunner().invoke(main, ["recovery-bench", "thin", str(tmp_path / "small" / "states"), "--max-states",
                                    "3", "--out", str(tmp_path / "x")])
    assert res.exit_code != 0 and "no manifest.json" in res.output
    # never over the source, inside it, or over a benchmark that is not an earlier thinning
    for bad_out, needle in ((src, "choose a folder apart"), (src / "states" / "x", "choose a folder apart"),
                            (tmp_path / "other", "something other than an earlier thinning")):
        if bad_out.name == "other":
            bad_out.mkdir()
            (bad_out / "manifest.json").write_text(json.dumps({"states": 1, "states_list": []}))
        res = CliRunner().invoke(main, ["recovery-bench", "thin", str(src), "--max-states", "3", "--out",
                                        str(bad_out)])
        assert res.exit_code != 0 and needle in res.output, res.output
    assert len(list((src / "states").iterdir())) == len(rows) - 1  # the source untouched
    assert json.loads((tmp_path / "other" / "manifest.json").read_text())["states"] == 1
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "manifest.json").write_text(json.dumps({"states": 0, "states_list": []}))
    res = CliRunner().invoke(main, ["recovery-bench", "thin", str(tmp_path / "empty"), "--max-states", "3", "--out",
                                    str(tmp_path / "e2")])
    assert res.exit_code == 0, res.output  # an empty benchmark (a toy run's) thins to an empty one, as it was
    assert json.loads((tmp_path / "e2" / "manifest.json").read_text())["states"] == 0
    assert (tmp_path / "e2" / "states").is_dir() and rb.load_states(tmp_path / "e2") == []


def test_a_benchmark_state_without_its_snapshot_is_named(tmp_path, tokenizer):  # noqa: F811
    """A state of a benchmark that carries no exported snapshot (one written by hand, or by a build cut short) is
    refused by `recovery-bench eval` naming it, before any engine or sandbox starts."""
    from click.testing import CliRunner

    from reterm.cli import main

    task = load_task(harbor_task(tmp_path / "tasks" / "t"))
    rb.build(ReplayPolicy(["```bash\nls /nope\n```", "TASK_COMPLETE"], tokenizer), [task], get_backend("local"),
             tmp_path / "bench", EpisodeConfig(max_turns=3))
    state_file = next((tmp_path / "bench" / "states").glob("*/state.json"))
    d = json.loads(state_file.read_text())
    del d["exported"]
    state_file.write_text(json.dumps(d))
    res = CliRunner().invoke(main, ["recovery-bench", "eval", str(tmp_path / "bench"), "-k", "1", "--model",
                                    str(tmp_path / "no-model"), "-o", str(tmp_path / "ev")])
    assert res.exit_code == 2 and "has no exported snapshot" in res.output and state_file.parent.name in res.output
    assert not (tmp_path / "ev").exists()


def test_output_option_says_each_commands_own_default_and_build_has_none():
    """-o/--output is offered where a command writes a run folder, with that command's own default in its help;
    `recovery-bench build` writes to --out and refuses -o rather than ignoring it."""
    from click.testing import CliRunner

    from reterm.cli import main

    def help_of(*cmd):
        res = CliRunner().invoke(main, [*cmd, "--help"], terminal_width=200)
        assert res.exit_code == 0, res.output
        return " ".join(res.output.split())

    assert "runs/<timestamp>-<agent>" in help_of("run")
    assert "runs/<timestamp>-eval" in help_of("eval")
    assert "BENCH_DIR/eval-<model name>-<timestamp>" in help_of("recovery-bench", "eval")
    assert "per set (required)" in help_of("eval-sets")
    assert "--output" not in help_of("recovery-bench", "build")
    res = CliRunner().invoke(main, ["recovery-bench", "build", "--out", "x", "-o", "y"])
    assert res.exit_code == 2 and "No such option" in res.output and "-o" in res.output
