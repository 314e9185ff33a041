"""The bundled task world: the split rule, the generic shortcuts, and every task's verifier rewarding only the
outcome (oracle 1, nop 0, every shortcut 0) on the local backend, and a sample covering every family on Docker."""

from __future__ import annotations

import random

import pytest

from conftest import get_backend, harbor_task
from reterm.evaluation.baselines import SHORTCUTS, ShortcutAgent, instruction_paths
from reterm.evaluation.trials import run_trial
from reterm.suites import families as fam_mod
from reterm.suites.families import Family, check_registry, registry
from reterm.suites.families.common import DOCKERFILE, check_py


def _family(name="tiny", kind="text", skills=(), check='if read("/app/out.txt") != "ok\\n": fail("no")\n'):
    def make(rng: random.Random):
        n = rng.randint(0, 10**6)
        files = {
            "environment/Dockerfile": (DOCKERFILE, False),
            "environment/files/data.txt": (f"{n}\n", False),
            "solution/solve.sh": ("#!/bin/bash\necho ok > /app/out.txt\n", True),
            "tests/check.py": (check_py(check), False),
        }
        return f"Write ok to `/app/out.txt` ({n}).\n", files, {"category": "output_format"}

    return Family(name, make, kind, skills)


def test_the_split_rule_holds_out_novel_kinds_and_compositional_families():
    fams = registry()
    by = {f.name: f for f in fams}
    train = [f for f in fams if f.heldout is None]
    assert len(fams) >= 60 and sum(1 for f in fams if f.heldout) >= 20
    assert sum(1 for f in fams if f.heldout == "compositional") >= 8
    assert {f.kind for f in train}.isdisjoint(fam_mod.NOVEL_KINDS)
    assert len({k for f in fams for k in f.kind.split("+")}) >= 12
    for f in fams:
        if f.heldout == "compositional":
            assert all(by[s].heldout is None for s in f.skills), f.name
        if f.heldout == "novel":
            assert f.kind in fam_mod.NOVEL_KINDS
    # the original twelve keep their place: json-config and extract-member are the held-out two
    assert [f.name for f in fams if f.legacy_index is not None and f.heldout] == ["json-config", "extract-member"]


@pytest.mark.parametrize("fams, words", [
    ([_family(kind="sqlite"), _family("t2", kind="sqlite", skills=())], None),  # both novel: fine (non-strict)
    ([_family(kind="nonsense")], "unknown kind 'nonsense'"),
    ([_family(kind="text"), _family("novel", kind="sqlite"), _family("comp", skills=("tiny", "novel"))],
     "not training families"),
    ([_family(kind="text"), _family(kind="text")], "defined twice"),
])
def test_a_family_in_the_wrong_place_is_refused_by_name(fams, words):
    if words is None:
        check_registry(fams, strict=False)
        return
    with pytest.raises(ValueError, match=words):
        check_registry(fams, strict=False)


def test_the_strict_registry_needs_the_minimum_counts():
    with pytest.raises(ValueError, match=">= 60 families"):
        check_registry([_family()], strict=True)


def test_instruction_paths_are_the_absolute_paths_it_names():
    text = "Run `/app/bin/run.sh` to build /app/out/summary.txt. Restore into `/app/restored/`. Not ./x or a/b."
    assert instruction_paths(text) == ["/app/bin/run.sh", "/app/out/summary.txt", "/app/restored/"]


def test_each_shortcut_does_what_it_says(tmp_path):
    """The shortcuts must really act: on a tiny task, each leaves the state its name promises."""
    be = get_backend("local")
    root = harbor_task(tmp_path / "t", instruction="Write `/app/new/result.txt` and make `/app/dir/`.\n")
    from reterm.tasks import load_task

    task = load_task(root)
    sb = be.start(task)
    try:
        sb.exec("mkdir -p /app && echo 'echo ran > /app/ran.txt' > /app/go.sh && echo x > /app/keep.txt")
        ShortcutAgent("run-all").run(sb, task)
        assert sb.exec("cat /app/ran.txt").output.strip() == "ran"
        ShortcutAgent("placeholders").run(sb, task)
        assert sb.exec("cat /app/new/result.txt; test -d /app/dir && echo dir").output.split() == ["placeholder", "dir"]
        ShortcutAgent("chmod-all").run(sb, task)
        assert sb.exec("stat -c %a /app/keep.txt").output.strip() == "777"
        ShortcutAgent("wipe").run(sb, task)
        assert sb.exec("ls -A /app | wc -l").output.strip() == "0"
        ShortcutAgent("delete").run(sb, task)
        assert "No such file" in sb.exec("ls /app").output
    finally:
        sb.close()
    assert set(SHORTCUTS) == {"wipe", "delete", "placeholders", "chmod-all", "run-all"}


def test_check_names_the_family_and_instance_a_shortcut_passes(tmp_path, monkeypatch, capsys):
    """A verifier a shortcut satisfies (here: any /app/out.txt passes) fails the generator's --check, which names
    the family and the task; a correct one passes."""
    from reterm.suites import generate

    weak = _family("weak-check", check='read("/app/out.txt")\n')
    good = _family("good-check")
    monkeypatch.setattr(generate, "registry", lambda strict=True: [weak, good])
    out = tmp_path / "suite"
    assert generate.main(["--out", str(out)]) == 0
    assert generate.main(["--check", "--out", str(out), "--families", "good-check", "--per-family", "1"]) == 0
    assert generate.main(["--check", "--out", str(out), "--families", "weak-check", "--per-family", "1"]) == 1
    err = capsys.readouterr().err
    assert "family weak-check task weak-check-00: shortcut:placeholders passes" in err


def test_an_unknown_family_is_a_usage_error(capsys):
    from reterm.suites.generate import main

    assert main(["--check", "--families", "no-such-family", "--no-trials"]) == 2
    assert "no-such-family" in capsys.readouterr().err


def test_generate_refuses_an_out_that_is_no_suite_and_writes_a_suite_whole(tmp_path, monkeypatch, capsys):
    """--check of a folder that holds no suite, an --out that is a file, or one whose tasks/ folder is not a suite
    this wrote (writing would replace it) are usage errors naming --out; a suite is written beside --out and swapped
    in, so no temporary folder is left."""
    from reterm.suites import generate

    monkeypatch.setattr(generate, "registry", lambda strict=True: [_family("good-check")])
    afile = tmp_path / "afile"
    afile.write_text("x")
    (tmp_path / "mine" / "tasks").mkdir(parents=True)
    (tmp_path / "mine" / "tasks" / "keep.txt").write_text("precious")
    for argv, why in ((["--check", "--no-trials", "--out", str(tmp_path / "empty")], "holds no suite to check"),
                      (["--out", str(afile)], "is a file, not a suite folder"),
                      (["--out", str(tmp_path / "mine")], "holds a tasks/ folder but no split.json"),
                      (["--check", "--concurrency", "0"], "--concurrency at least 1")):
        with pytest.raises(SystemExit):
            generate.main(argv)
        assert why in capsys.readouterr().err
    assert (tmp_path / "mine" / "tasks" / "keep.txt").read_text() == "precious"
    assert generate.main(["--out", str(tmp_path / "suite")]) == 0
    assert generate.main(["--out", str(tmp_path / "suite")]) == 0  # a suite this wrote is written again
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile", "mine", "suite"]
    assert sorted(p.name for p in (tmp_path / "suite").iterdir()) == ["split.json", "tasks"]  # nothing left
    with pytest.raises(SystemExit):  # a subset written over the bundled suite would replace it
        generate.main(["--families", "good-check"])
    assert "--families writes only those families: give --out" in capsys.readouterr().err
    assert generate.main(["--check", "--no-trials", "--out", str(tmp_path / "suite")]) == 0


@pytest.mark.slow
@pytest.mark.background
@pytest.mark.timeout(2400)
def test_every_bundled_task_rewards_only_the_outcome_on_local():
    """Every task of the bundled suite, every split: the reference solution scores 1, doing nothing 0, and every
    generic shortcut 0, on the local backend."""
    from reterm.suites import suite_dir
    from reterm.suites.verify import check_suite

    assert check_suite(suite_dir("basic"), backend="local", concurrency=6) == []


def test_a_sample_of_shortcuts_takes_each_in_turn_and_meets_them_all():
    """`--shortcuts-per-task K`: oracle and nop on every task, K shortcuts each, every shortcut met as often as any
    other (to within one) over the tasks."""
    from collections import Counter

    from reterm.suites.verify import AGENTS, agents_for, main

    assert agents_for(7) == AGENTS == agents_for(7, len(SHORTCUTS))
    for k in (1, 2, 3):
        picks = [agents_for(i, k) for i in range(63)]
        assert all(p[:2] == ("oracle", "nop") and len(p) == 2 + k and len(set(p)) == 2 + k for p in picks)
        met = Counter(a for p in picks for a in p[2:])
        assert set(met) == {f"shortcut:{s}" for s in SHORTCUTS} and max(met.values()) - min(met.values()) <= 1
    with pytest.raises(SystemExit):
        main([".", "--shortcuts-per-task", "-1"])


def test_verify_names_a_broken_task_and_an_unknown_family_before_any_trial(tmp_path, capsys, monkeypatch):
    """`python -m reterm.suites.verify` on a suite with a task that does not load, or asked for a family no task
    has: exit 2 naming the file and line, or the family; no trial runs."""
    import reterm.evaluation.trials as trials
    from conftest import harbor_task
    from reterm.suites.verify import main

    monkeypatch.setattr(trials, "run_trial", lambda *a, **k: pytest.fail("a trial ran"))

    harbor_task(tmp_path / "suite" / "tasks" / "good")
    bad = harbor_task(tmp_path / "suite" / "tasks" / "bad", toml='[verifier]\ntimeout_sec = "soon"\n')
    assert main([str(tmp_path / "suite")]) == 2
    assert f"{bad / 'task.toml'}:2" in capsys.readouterr().err
    import shutil

    shutil.rmtree(bad)
    assert main([str(tmp_path / "suite"), "--families", "good,nosuch"]) == 2
    assert "--families: no task of nosuch under" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_one_instance_of_every_family_rewards_only_the_outcome_on_docker():
    """On Docker, a sample: one instance of every family, where the reference solution scores 1, doing nothing 0, and
    one generic shortcut 0 (the shortcuts taken in turn, each meeting 12 or 13 families); the local test above tries
    every shortcut on every task."""
    get_backend("docker")  # skips (or fails under RETERM_REQUIRE_DOCKER=1) without an engine
    from reterm.suites import suite_dir
    from reterm.suites.verify import check_suite

    assert check_suite(suite_dir("basic"), backend="docker", per_family=1, concurrency=6, shortcuts_per_task=1) == []
