"""A job's code pinned at its first start: a job that runs for days (the confirmatory comparison) keeps running the
commit it started with while the checkout moves on, and a resumed job never mixes stages run by two versions of the
code.

With `pin_code: true` in the job's config (or `recipes/main_job.py --pin`), the first start records the checkout's
commit in RUN/code.json and makes RUN/code/, a clone of the checkout at that commit (with a link to the checkout's
`.venv`). recipes/main_job.py then runs itself from there, and so every stage's command: stages run from the job's
root, with PYTHONPATH naming it, so that `import reterm` in a stage is the pinned package, not the one the
environment installed from the checkout. Every later start, from whatever checkout, runs the pinned commit and says
so; a run folder once pinned stays pinned (delete RUN/code.json and RUN/code/ to unpin it).

Refused, saying why: pinning a checkout whose tracked files have changes not committed (they would not be in the
pinned code), a pinned copy whose tracked files were edited, and a pinned commit that the checkout's git does not
hold when RUN/code/ must be made again (on a new machine, say).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from pathlib import Path

from reterm.jobs import PINNED_CODE as CODE  # in the run folder: the clone the job runs from
from reterm.jobs import JobError

PIN = "code.json"  # in the run folder: the pinned commit, when and from where


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise JobError("pin_code: git is not installed; the pinned code is a git clone") from None


def head(root: Path) -> str | None:
    """The commit checked out in `root`; None where `root` is not a git checkout."""
    p = _git(root, "rev-parse", "--show-toplevel", "HEAD")
    if p.returncode != 0:
        return None
    top, commit = p.stdout.split()
    return commit if Path(top).resolve() == Path(root).resolve() else None


def changed(root: Path) -> list[str]:
    """Tracked files of `root` with changes not committed (untracked files are not the code's)."""
    p = _git(root, "status", "--porcelain", "--untracked-files=no")
    return [line[3:] for line in p.stdout.splitlines() if line.strip()]


def pinned(run_dir: Path) -> dict | None:
    """The run folder's pin (commit, pinned_at, checkout), or None where it is not pinned."""
    path = Path(run_dir) / PIN
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text())
        if not isinstance(record, dict) or not isinstance(record.get("commit"), str):
            raise ValueError("no commit recorded")
    except ValueError as e:
        raise JobError(f"{path}: not a pin record ({e}); restore it, or delete it and {Path(run_dir) / CODE} to "
                       f"pin the run folder anew") from None
    return record


def _describe(files: list[str]) -> str:
    return ", ".join(files[:5]) + (f" and {len(files) - 5} more" if len(files) > 5 else "")


def _make(code: Path, root: Path, commit: str, run_dir: Path) -> None:
    """RUN/code/ as a clone of `root` at `commit`, made whole or not at all."""
    if _git(root, "cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
        raise JobError(f"{run_dir / PIN} pins commit {commit[:12]}, which the git of this checkout ({root}) does not "
                       f"hold, and {code} must be made again: fetch that commit, or run the job from a checkout that "
                       f"has it")
    tmp = code.with_name(f".{CODE}.tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    for args in (("clone", "--quiet", "--no-checkout", str(root), str(tmp)),
                 ("-C", str(tmp), "checkout", "--quiet", "--detach", commit)):
        p = _git(run_dir, *args)
        if p.returncode != 0:
            shutil.rmtree(tmp, ignore_errors=True)
            raise JobError(f"pin_code: could not make {code} at commit {commit[:12]} from {root}: "
                           f"git {' '.join(args[:3])}: {p.stderr.strip()}")
    venv = root / ".venv"
    if venv.is_dir():  # the settings name .venv/bin/python and .venv/bin/reterm relative to the job's root
        (tmp / ".venv").symlink_to(venv.resolve(), target_is_directory=True)
    shutil.rmtree(code, ignore_errors=True)
    tmp.rename(code)


def ensure(run_dir: Path, root: Path) -> tuple[Path, dict, str]:
    """The pinned code's folder, the pin's record, and what was done (pinned, remade, kept). Pins `root`'s commit
    when the run folder is not pinned yet; remakes RUN/code/ when it is missing or at another commit."""
    run_dir, root = Path(run_dir).resolve(), Path(root).resolve()
    code = run_dir / CODE
    record = pinned(run_dir)
    if record is None:
        commit = head(root)
        if commit is None:
            raise JobError(f"pin_code: {root} is not a git checkout, so there is no commit to pin; run the job from a "
                           f"clone of the repository, or without pinning")
        dirty = changed(root)
        if dirty:
            raise JobError(f"pin_code: {root} has changes to tracked files that are not committed "
                           f"({_describe(dirty)}); the job would run the commit, not what you see: commit or stash "
                           f"them, then start the job again")
        run_dir.mkdir(parents=True, exist_ok=True)
        _make(code, root, commit, run_dir)
        record = {"commit": commit, "pinned_at": time.strftime("%Y-%m-%d %H:%M:%S"), "checkout": str(root)}
        tmp = run_dir / (PIN + ".tmp")
        tmp.write_text(json.dumps(record, indent=1) + "\n")
        os.replace(tmp, run_dir / PIN)
        return code, record, "pinned"
    commit = record["commit"]
    if code == root:  # running from the pinned copy itself
        if head(code) != commit:
            raise JobError(f"{code} is at commit {head(code)}, but the run folder is pinned to {commit[:12]} "
                           f"({run_dir / PIN}); delete {code} and start the job from a checkout that holds that "
                           f"commit: it is made again")
        action = "kept"
    elif not code.is_dir() or head(code) != commit:
        _make(code, root, commit, run_dir)
        action = "remade"
    else:
        action = "kept"
    dirty = changed(code)
    if dirty:
        raise JobError(f"{code}: its tracked files were edited ({_describe(dirty)}), so it is no longer commit "
                       f"{commit[:12]}, the code this run folder is pinned to: undo that (`git -C {code} checkout -- "
                       f".`), or delete {code} to have it made again")
    return code, record, action


def exec_env(code: Path) -> dict[str, str]:
    """The environment the pinned job runs in: its package first on the import path."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(code) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    return env
