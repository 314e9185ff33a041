"""A job's code pinned at its first start (reterm/code_pin.py; `pin_code: true` in a job config, or
`recipes/main_job.py --pin`): the job, and every stage's command with it, runs the commit it first started with
from a clone in the run folder, whatever the checkout holds later. Real git repositories in a temporary folder (a
checkout made of this one's job runner), the job runner run as a user runs it."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# a stage: where it ran, which `reterm` it imports, and the checkout's marker file as it reads it
STAGE = """
import os, pathlib, sys
import reterm
out = pathlib.Path(sys.argv[1])
out.mkdir(parents=True, exist_ok=True)
weights = pathlib.Path("runs/model/weights.txt")  # git ignores it: no commit holds it
(out / "seen.json").write_text(__import__("json").dumps({"cwd": os.getcwd(), "reterm": reterm.__file__,
                                                         "marker": pathlib.Path("marker.txt").read_text(),
                                                         "args": sys.argv[2:],
                                                         "weights": weights.read_text() if weights.exists() else None}))
"""


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True, text=True).stdout.strip()


def _checkout(tmp: Path, name: str = "checkout") -> Path:
    """A git checkout holding this checkout's job runner (the package without its task suites), a recipe config
    its stages name, a marker file the stages read, and a file git ignores (runs/model/weights.txt)."""
    repo = tmp / name
    shutil.copytree(ROOT / "reterm", repo / "reterm", ignore=shutil.ignore_patterns("suites", "__pycache__"))
    (repo / "recipes").mkdir()
    shutil.copy(ROOT / "recipes/main_job.py", repo / "recipes/main_job.py")
    (repo / "recipes/recipe.yaml").write_text("lr: 1\n")
    (repo / "marker.txt").write_text("v1\n")
    (repo / ".gitignore").write_text("__pycache__/\nruns/\n")
    (repo / "runs/model").mkdir(parents=True)
    (repo / "runs/model/weights.txt").write_text("w1")
    _git(repo, "init", "--quiet")
    _git(repo, "add", "-A")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-m", "v1")
    return repo


def _commit(repo: Path, marker: str) -> str:
    (repo / "marker.txt").write_text(marker)
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "--quiet", "-am", marker.strip())
    return _git(repo, "rev-parse", "HEAD")


def _config(tmp: Path, pin: bool = True) -> Path:
    (tmp / "stage.py").write_text(STAGE)
    cfg = tmp / "job.yaml"
    cfg.write_text(f"""
run_dir: {tmp}/run
quick_run_dir: {tmp}/run-quick
engine: transformers
{"pin_code: true" if pin else ""}
stages:
  a:
    about: first
    cmd: "{{python}} {tmp}/stage.py {{out}} recipes/recipe.yaml"
  b:
    about: second
    cmd: "{{python}} {tmp}/stage.py {{out}} {{greeting}}"
settings:
  python: {sys.executable}
  greeting: hello
quick_settings:
  greeting: quick-hello
""")
    return cfg


def _job(repo: Path, cfg: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(repo / "recipes/main_job.py"), "--config", str(cfg), *args],
                          cwd=repo, capture_output=True, text=True, timeout=300)


def _seen(tmp: Path, stage: str) -> dict:
    return json.loads((tmp / "run" / stage / "seen.json").read_text())


def test_a_pinned_job_runs_its_first_commit_after_the_checkout_moves_on(tmp_path):
    repo = _checkout(tmp_path)
    first = _git(repo, "rev-parse", "HEAD")
    cfg = _config(tmp_path)
    p = _job(repo, cfg, "--until", "a")
    assert p.returncode == 0, p.stderr
    code = (tmp_path / "run" / "code").resolve()
    assert json.loads((tmp_path / "run/code.json").read_text())["commit"] == first
    assert f"pinned now, at its first start, to this checkout's commit {first[:12]}" in p.stdout
    seen = _seen(tmp_path, "a")
    assert seen["cwd"] == str(code) and seen["marker"] == "v1\n"
    assert Path(seen["reterm"]).resolve().is_relative_to(code)  # the stage imports the pinned package

    second = _commit(repo, "v2\n")
    p = _job(repo, cfg)
    assert p.returncode == 0, p.stderr
    assert f"this checkout is at {second[:12]}, which does not run" in p.stdout
    assert "a: done" in p.stdout  # the finished stage is not redone by the move
    assert _seen(tmp_path, "b")["marker"] == "v1\n"  # the stage ran the pinned commit, not the checkout's
    assert _git(code, "rev-parse", "HEAD") == first
    log = (tmp_path / "run/job.log").read_text()
    assert log.count("code: ") == 2


def test_pinning_a_checkout_with_uncommitted_changes_is_refused_and_leaves_nothing(tmp_path):
    repo = _checkout(tmp_path)
    (repo / "marker.txt").write_text("edited\n")
    p = _job(repo, _config(tmp_path, pin=False), "--pin")
    assert p.returncode == 2
    assert "marker.txt" in p.stderr and "not committed" in p.stderr
    assert not (tmp_path / "run" / "code.json").exists() and not (tmp_path / "run" / "code").exists()
    assert not (tmp_path / "run" / "a").exists()


def test_a_pinned_run_folder_stays_pinned_its_copy_remade_and_an_edited_copy_refused(tmp_path):
    repo = _checkout(tmp_path)
    first = _git(repo, "rev-parse", "HEAD")
    assert _job(repo, _config(tmp_path, pin=False), "--pin", "--until", "a").returncode == 0
    _commit(repo, "v2\n")
    code = tmp_path / "run" / "code"
    shutil.rmtree(code)  # a new machine, say: the copy is made again from the checkout's git
    p = _job(repo, _config(tmp_path, pin=False), "--until", "b")  # no --pin, no pin_code: pinned all the same
    assert p.returncode == 0, p.stderr
    assert "its copy made again" in p.stdout
    assert _git(code, "rev-parse", "HEAD") == first and _seen(tmp_path, "b")["marker"] == "v1\n"

    (code / "marker.txt").write_text("tampered\n")
    p = _job(repo, _config(tmp_path, pin=False))
    assert p.returncode == 2
    assert "were edited (marker.txt)" in p.stderr


def test_pinning_a_job_that_ran_unpinned_redoes_none_of_its_stages(tmp_path):
    """A config file a stage names relative to the root is read from the pinned copy, inside the run folder; it
    still counts in the stage's fingerprint, so the same file there changes nothing."""
    repo = _checkout(tmp_path)
    cfg = _config(tmp_path, pin=False)
    assert _job(repo, cfg, "--until", "a").returncode == 0
    before = json.loads((tmp_path / "run/job.json").read_text())["a"]
    assert "recipes/recipe.yaml" in before["parts"]["files"]
    p = _job(repo, cfg, "--pin")
    assert p.returncode == 0, p.stderr
    assert "a: done" in p.stdout and "redone" not in p.stdout
    assert _seen(tmp_path, "a")["cwd"] == str(repo.resolve())  # a's output is the unpinned run's
    assert _seen(tmp_path, "b")["cwd"] == str((tmp_path / "run" / "code").resolve())


def test_a_pinned_job_keeps_every_flag_and_reads_what_the_checkout_ignores(tmp_path):
    """`--set`, `--quick` and a run folder relative to the checkout reach the pinned copy; a stage reads a file git
    ignores (runs/..., as a job's start model) by its path relative to the root, through the copy's links."""
    repo = _checkout(tmp_path)
    cfg = _config(tmp_path, pin=False)
    p = _job(repo, cfg, "--pin", "--run-dir", "runs/job", "--set", "greeting=hi")
    assert p.returncode == 0, p.stderr
    run = repo / "runs" / "job"  # relative to the checkout's root, as without pinning
    assert (run / "code.json").exists() and not (tmp_path / "run").exists()
    seen = json.loads((run / "b" / "seen.json").read_text())
    assert seen["cwd"] == str((run / "code").resolve()) and seen["args"] == ["hi"] and seen["weights"] == "w1"
    p = _job(repo, cfg, "--pin", "--quick")
    assert p.returncode == 0, p.stderr
    assert json.loads((tmp_path / "run-quick" / "b" / "seen.json").read_text())["args"] == ["quick-hello"]
    assert (tmp_path / "run-quick" / "code.json").exists()


def test_a_plan_pins_nothing_and_a_second_start_beside_a_running_job_is_refused_before_pinning(tmp_path):
    repo = _checkout(tmp_path)
    cfg = _config(tmp_path)
    p = _job(repo, cfg, "--plan")
    assert p.returncode == 0, p.stderr
    assert "a start pins this checkout's commit" in p.stdout and "run  a" in p.stdout
    run = tmp_path / "run"
    assert not run.exists()  # a plan writes nothing: no run folder, no code.json, no code/
    run.mkdir()
    (run / "job.pid").write_text(f"{os.getpid()}\n")  # a live process holds the run folder: a job running there
    p = _job(repo, cfg)
    assert p.returncode == 2 and "is running in this run folder" in p.stderr
    assert not (run / "code.json").exists() and not (run / "code").exists()
    (run / "job.pid").unlink()
    assert _job(repo, cfg, "--until", "a").returncode == 0
    log = (run / "job.log").read_text()
    p = _job(repo, cfg, "--plan")  # pinned: the plan of the pinned copy, nothing written
    assert p.returncode == 0 and "done  a" in p.stdout and "run  b" in p.stdout
    assert (run / "job.log").read_text() == log


def test_repin_moves_the_pin_to_the_checkouts_commit_and_keeps_the_earlier_one(tmp_path):
    repo = _checkout(tmp_path, "a checkout")  # a space in its path
    cfg = _config(tmp_path)
    p = _job(repo, cfg, "--repin")
    assert p.returncode == 2 and "is not pinned" in p.stderr
    first = _git(repo, "rev-parse", "HEAD")
    assert _job(repo, cfg, "--until", "a").returncode == 0
    second = _commit(repo, "v2\n")  # e.g. the design committed after the benchmarks it reads
    p = _job(repo, cfg, "--repin")
    assert p.returncode == 0, p.stderr
    assert f"pinned again, now, to this checkout's commit {second[:12]} (until now {first[:12]})" in p.stdout
    assert "a: done" in p.stdout and _seen(tmp_path, "b")["marker"] == "v2\n"
    record = json.loads((tmp_path / "run/code.json").read_text())
    assert record["commit"] == second and [e["commit"] for e in record["earlier"]] == [first]
