"""Task loaders (Harbor, Terminal-Bench v1) and `reterm tasks validate` on tasks written here."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import harbor_task, write_files
from reterm.tasks import TaskError, load_task, load_tasks

TB2_STYLE_TOML = """
version = "1.0"

[metadata]
author_name = "someone"
difficulty = "medium"
category = "system-administration"
tags = ["bash", "files"]
custom_field = { nested = 1 }

[verifier]
timeout_sec = 900.0

[agent]
timeout_sec = 1800.0

[environment]
build_timeout_sec = 600.0
docker_image = "alexgshaw/some-task:20251031"
cpus = 2
memory = "2G"
storage = "10G"
allow_internet = true
workdir = "/app"
"""


def test_harbor_task_with_deprecated_keys(tmp_path):
    root = harbor_task(tmp_path / "tb2-task", toml=TB2_STYLE_TOML)
    (root / "environment" / "Dockerfile").unlink()
    t = load_task(root)
    assert t.format == "harbor" and t.id == "tb2-task"
    assert t.limits.memory_mb == 2048 and t.limits.storage_mb == 10240 and t.limits.cpus == 2
    assert t.limits.agent_timeout_sec == 1800 and t.limits.verifier_timeout_sec == 900
    assert t.docker_image == "alexgshaw/some-task:20251031" and t.dockerfile is None
    assert t.allow_internet and t.workdir == "/app"
    assert t.metadata["custom_field"] == {"nested": 1} and t.category == "system-administration"
    assert t.solution.name == "solve.sh" and t.test_script.name == "test.sh"


def test_harbor_current_keys(tmp_path):
    t = load_task(harbor_task(tmp_path / "t", toml="[environment]\nmemory_mb = 512\nstorage_mb = 2048\n"))
    assert t.limits.memory_mb == 512 and t.limits.storage_mb == 2048
    assert t.limits.agent_timeout_sec == 600 and t.allow_internet  # Harbor's default


def tb1_task(root):
    return write_files(root, {
        "task.yaml": """
            instruction: |-
              Write hello to /app/hello.txt.
            author_email: someone@example.com
            difficulty: easy
            category: file-operations
            tags: [files]
            parser_name: pytest
            max_agent_timeout_sec: 120
            run_tests_in_same_shell: false
            """,
        "Dockerfile": "FROM ubuntu:22.04\nWORKDIR /app\n",
        "docker-compose.yaml": "services: {}\n",
        "run-tests.sh": """
            #!/bin/bash
            cd "$TEST_DIR" && python3 -m pytest -rA test_outputs.py
            """,
        "tests/test_outputs.py": """
            from pathlib import Path

            def test_file_exists():
                assert Path("/app/hello.txt").exists()

            def test_content():
                assert Path("/app/hello.txt").read_text().strip() == "hello"
            """,
        "solution.sh": "#!/bin/bash\necho hello > /app/hello.txt\n",
    })


def test_tb1_task(tmp_path):
    t = load_task(tb1_task(tmp_path / "hello-world"))
    assert t.format == "tb1" and t.reward_mode == "pytest"
    assert t.instruction == "Write hello to /app/hello.txt."
    assert t.limits.agent_timeout_sec == 120 and t.limits.verifier_timeout_sec == 60  # TB v1 default
    assert t.verifier_env == {"TEST_DIR": "/tests"} and t.test_script.name == "run-tests.sh"
    assert t.category == "file-operations" and t.metadata["tags"] == ["files"]


def test_directory_of_tasks_is_accepted(tmp_path):
    harbor_task(tmp_path / "suite" / "a")
    tb1_task(tmp_path / "suite" / "nested" / "b")
    assert [t.id for t in load_tasks([tmp_path / "suite"])] == ["a", "b"]


@pytest.mark.parametrize("mutate, file, line, words", [
    (lambda r: (r / "task.toml").write_text('version = "1.0"\n[agent]\ntimeout_sec = "soon"\n'),
     "task.toml", 3, "agent.timeout_sec"),
    (lambda r: (r / "task.toml").write_text('[environment]\ncpus = 1\nmemory = "lots"\n'),
     "task.toml", 3, "environment.memory"),
    (lambda r: (r / "task.toml").write_text('[verifier\ntimeout_sec = 1\n'), "task.toml", 1, "invalid TOML"),
    (lambda r: (r / "tests" / "test.sh").unlink(), "tests/test.sh", None, "missing"),
    (lambda r: (r / "instruction.md").write_text("  \n"), "instruction.md", None, "empty"),
    (lambda r: (r / "environment" / "Dockerfile").unlink(), "environment/Dockerfile", None, "docker_image"),
    (lambda r: (r / "task.toml").write_text('version = "1.0"\n[metadata]\nkind = 3\n'), "task.toml", 3,
     "metadata.kind"),
    (lambda r: (r / "task.toml").write_text('version = "1.0"\n[[steps]]\nname = "one"\nagent = 5\n'), "task.toml", 2,
     "`agent` must be a table"),
])
def test_broken_harbor_task_names_file_and_line(tmp_path, mutate, file, line, words):
    root = harbor_task(tmp_path / "broken")
    mutate(root)
    with pytest.raises(TaskError) as e:
        load_task(root)
    assert e.value.file == file and e.value.line == line
    assert str(root / file) in str(e.value) and words in str(e.value)


def test_broken_tb1_yaml_names_line(tmp_path):
    root = tb1_task(tmp_path / "bad")
    (root / "task.yaml").write_text("instruction: hi\ncategory: [unclosed\nmax_test_timeout_sec: 5\n")
    with pytest.raises(TaskError) as e:
        load_task(root)
    assert e.value.file == "task.yaml" and e.value.line in (2, 3)
    (root / "task.yaml").write_text("instruction: hi\nmax_test_timeout_sec: -5\n")
    with pytest.raises(TaskError, match=r"task.yaml:2: `max_test_timeout_sec` must be greater than 0"):
        load_task(root)


def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "reterm.cli", *args], capture_output=True, text=True, **kw)


def test_validate_cli_exits_2_and_names_the_file(tmp_path):
    harbor_task(tmp_path / "suite" / "good")
    bad = harbor_task(tmp_path / "suite" / "bad", toml='[agent]\ntimeout_sec = "x"\n')
    r = _cli("tasks", "validate", str(tmp_path / "suite"))
    assert r.returncode == 2
    assert f"{bad / 'task.toml'}:2" in r.stderr and "1 valid, 1 broken" in r.stderr
    ok = _cli("tasks", "validate", str(tmp_path / "suite" / "good"))
    assert ok.returncode == 0, ok.stderr
    missing = _cli("tasks", "validate", str(tmp_path / "nothing-here"))
    assert missing.returncode == 2 and "does not exist" in missing.stderr
    (tmp_path / "afile").write_text("x")
    for cmd in (("tasks", "validate"), ("tasks", "list")):
        r = _cli(*cmd, str(tmp_path / "afile"))
        assert r.returncode == 2 and "is a file, not a task dir" in r.stderr and "Traceback" not in r.stderr, r.stderr
    # a message is printed as written: brackets in a path are not taken for the terminal's markup
    odd = harbor_task(tmp_path / "br[red]" / "t1", toml='[agent]\ntimeout_sec = "x"\n')
    r = _cli("tasks", "list", str(odd))
    assert r.returncode == 2 and f"{odd / 'task.toml'}:2" in r.stderr, r.stderr


def test_run_cli_rejects_bad_tasks_with_exit_2(tmp_path):
    bad = harbor_task(tmp_path / "bad", toml="[environment]\ncpus = true\n")
    r = _cli("run", str(bad), "--backend", "local", "-o", str(tmp_path / "out"))
    assert r.returncode == 2 and f"{bad / 'task.toml'}:2" in r.stderr
    assert not (tmp_path / "out").exists()
    r = _cli("run", str(tmp_path / "bad"), "--image-map", "nonsense", "--backend", "local")
    assert r.returncode == 2


def test_bundled_suite_is_valid_and_up_to_date():
    from reterm import suites
    from reterm.suites.generate import main as generate

    tasks = suites.load("basic")
    assert len(tasks) >= 90
    assert len({t.family for t in tasks}) >= 60 and len({t.category for t in tasks}) >= 12
    train, held = suites.load("basic", "train"), suites.load("basic", "heldout_families")
    instances = suites.load("basic", "heldout_instances")
    assert [t.id for t in suites.load("basic", "heldout")] == [t.id for t in held]  # the older name
    assert {t.family for t in train}.isdisjoint({t.family for t in held})
    comp, novel = suites.load("basic", "heldout_compositional"), suites.load("basic", "heldout_novel")
    assert sorted(t.id for t in comp + novel) == sorted(t.id for t in held)
    assert len({t.family for t in comp}) >= 8 and len({t.family for t in held}) >= 20
    assert all(t.metadata["heldout"] == "compositional" and len(t.metadata["skills"]) >= 2 for t in comp)
    assert {t.metadata["kind"] for t in novel}.isdisjoint({t.metadata["kind"] for t in train})
    assert all(t.metadata["split"] == "train" for t in train)
    # held-out instances: new seeds (so new content) of training families only
    assert {t.family for t in instances} == {t.family for t in train}
    assert {t.metadata["seed"] for t in instances}.isdisjoint({t.metadata["seed"] for t in train})
    assert all(t.id.rsplit("-", 1)[1].startswith("h") for t in instances)
    assert len(train) + len(instances) + len(held) == len(tasks)
    # compare_instances: the first ten training families' reserved seeds, kept for the record; compare_fresh: new
    # seeds of every family. Neither is part of `all`, and no instance repeats another.
    compare = suites.load("basic", "compare_instances")
    assert len(compare) == 120 and len({t.family for t in compare}) == 10
    assert {t.family for t in compare} <= {t.family for t in train}
    assert all(t.id.rsplit("-", 1)[1].startswith("c") for t in compare)
    fresh = suites.load("basic", "compare_fresh")
    assert {t.family for t in fresh} == {t.family for t in tasks}
    assert all(t.id.rsplit("-", 1)[1].startswith("f") and t.metadata["split"] == "compare_fresh" for t in fresh)
    for reserved in (compare, fresh):
        assert not {t.id for t in reserved} & {t.id for t in tasks}

    def content(task):
        return {p.relative_to(task.path).as_posix(): p.read_bytes() for p in sorted(task.path.rglob("*"))
                if p.is_file() and p.name != "task.toml"}

    # the original twelve families' train and held-out instances are frozen as first written (fix-bug-h01 repeats
    # fix-bug-h00); every other instance is new
    frozen = {t.id for t in train + instances + held if t.metadata["seed"] < 10_000_000}
    seen: dict[str, list] = {}
    for t in train + instances + held + compare + fresh:
        c = content(t)
        assert t.id in frozen or c not in seen.setdefault(t.family, []), f"{t.id} repeats an instance of its family"
        seen.setdefault(t.family, []).append(c)
    with pytest.raises(ValueError, match="unknown split 'test'"):
        suites.load("basic", "test")
    assert generate(["--check", "--no-trials"]) == 0, \
        "reterm/suites/basic differs from `python -m reterm.suites.generate`"


def test_compare_fresh_has_a_training_and_a_held_out_part_derived_from_the_family_lists(tmp_path, monkeypatch):
    """`compare_fresh_train` and `compare_fresh_heldout` (benchmarks/confirm/design.md section 4) are the instances of
    `compare_fresh` whose family split.json lists as training or held out: together all of it, apart nothing shared,
    listed by `reterm tasks list`; a suite without `compare_fresh` has neither."""
    from reterm import suites

    fresh = {t.id: t for t in suites.load("basic", "compare_fresh")}
    train, held = suites.load("basic", "compare_fresh_train"), suites.load("basic", "compare_fresh_heldout")
    assert (len(train), len(held)) == (117, 72)  # 3 instances of each of the 39 training and 24 held-out families
    assert sorted(t.id for t in train + held) == sorted(fresh)
    assert {t.family for t in train} == {t.family for t in suites.load("basic", "train")}
    assert {t.family for t in held} == {t.family for t in suites.load("basic", "heldout_families")}
    assert all(t.metadata["split"] == "compare_fresh" and "heldout" not in t.metadata for t in train)
    assert {t.metadata["heldout"] for t in held} == {"compositional", "novel"}
    assert not {t.id for t in train + held} & {t.id for t in suites.load("basic")}  # not part of `all`
    r = _cli("tasks", "list", "--split", "compare_fresh_heldout")
    assert r.returncode == 0, r.stderr
    assert [line.split("\t")[0] for line in r.stdout.splitlines()[1:]] == sorted(t.id for t in held)
    # by the lists, not by the ids: a family whose name has dashes, and one listed in neither group
    (tmp_path / "mini").mkdir()
    (tmp_path / "mini" / "split.json").write_text(json.dumps({
        "train": ["a-00"], "compare_fresh": ["a-f00", "b-c-f00", "b-c-f01", "d-f00"],
        "families": {"train": ["a"], "heldout": ["b-c"]}}))
    monkeypatch.setattr(suites, "ROOT", tmp_path)
    assert suites.split_ids("mini", "compare_fresh_train") == ["a-f00"]
    assert suites.split_ids("mini", "compare_fresh_heldout") == ["b-c-f00", "b-c-f01"]
    (tmp_path / "mini" / "split.json").write_text(json.dumps({"train": ["a-00"], "families": {"train": ["a"]}}))
    with pytest.raises(ValueError, match="suite 'mini' has no compare_fresh split"):
        suites.split_ids("mini", "compare_fresh_train")


def test_tasks_list_shows_family_kind_and_split():
    r = _cli("tasks", "list", "--split", "heldout_compositional")
    assert r.returncode == 0, r.stderr
    rows = [line.split("\t") for line in r.stdout.splitlines()]
    assert rows[0] == ["task", "family", "kind", "split", "category", "format"]
    assert len(rows) > 30 and all(row[3] == "heldout_families (compositional)" for row in rows[1:])
    assert all("+" in row[2] or row[2] in ("c-build", "python", "shell", "git") for row in rows[1:])
