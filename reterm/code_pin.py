"""A job's code pinned at its first start: a job that runs for days (the confirmatory comparison) keeps running the
commit it started with while the checkout moves on, and a resumed job never mixes stages run by two versions of the
code without saying so.

With `pin_code: true` in the job's config (or `recipes/main_job.py --pin`), the first start records the checkout's
commit in RUN/code.json and makes RUN/code/, a clone of the checkout at that commit, with links to what the checkout
holds that git ignores (`.venv`, `runs/`, `data/`: what stages name by relative paths and no commit holds).
recipes/main_job.py then runs itself from there, and so every stage's command: stages run from the job's root, with
PYTHONPATH naming it, so that `import reterm` in a stage is the pinned package, not the one the environment installed
from the checkout. Every later start runs the pinned commit and says so; a run folder once pinned stays pinned.
`--repin` moves the pin to the checkout's current commit (for a change the job's next stages need, such as a design
committed after the benchmarks it reads were frozen); code.json keeps every earlier pin and when it ended.

Not pinned: the packages of the linked `.venv` (installing into the checkout's environment changes them), and files
git does not track that are added inside RUN/code/.

Refused, saying why: pinning a checkout whose tracked files have changes not committed (they would not be in the
pinned code), a pinned copy whose tracked files were edited or that is not at the pinned commit, and a pinned commit
that the checkout's git does not hold when RUN/code/ must be made again (on a new machine, say).
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

PIN = "code.json"  # in the run folder: the pinned commit, when and from where, and the earlier pins
NOT_LINKED = {"__pycache__", ".pytest_cache"}  # ignored files of the checkout that are no stage's input


def _git(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    except FileNotFoundError:
        raise JobError("pin_code: git is not installed; the pinned code is a git clone") from None


def head(root: Path) -> str | None:
    """The commit checked out in `root`; None where `root` is not the top of a git checkout."""
    p = _git(root, "rev-parse", "--show-toplevel", "HEAD")
    lines = p.stdout.splitlines()
    if p.returncode != 0 or len(lines) != 2:
        return None
    return lines[1] if Path(lines[0]).resolve() == Path(root).resolve() else None


def changed(root: Path) -> list[str]:
    """Tracked files of `root` with changes not committed (untracked files are not the code's)."""
    p = _git(root, "status", "--porcelain", "--untracked-files=no")
    if p.returncode != 0:
        raise JobError(f"pin_code: `git status` in {root} failed, so whether its code is the commit's cannot be "
                       f"told: {p.stderr.strip()}")
    return [line[3:] for line in p.stdout.splitlines() if line.strip()]


def pinned(run_dir: Path) -> dict | None:
    """The run folder's pin (commit, pinned_at, checkout, earlier), or None where it is not pinned."""
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


def copy_ready(run_dir: Path) -> bool:
    """Whether RUN/code/ is there, at the pinned commit (what `ensure` would run without making anything)."""
    record = pinned(run_dir)
    code = Path(run_dir) / CODE
    return record is not None and code.is_dir() and head(code) == record["commit"]


def _describe(files: list[str]) -> str:
    return ", ".join(files[:5]) + (f" and {len(files) - 5} more" if len(files) > 5 else "")


def _clean_commit(root: Path) -> str:
    """`root`'s commit, when its tracked files are as committed; JobError otherwise."""
    commit = head(root)
    if commit is None:
        raise JobError(f"pin_code: {root} is not a git checkout, so there is no commit to pin; run the job from a "
                       f"clone of the repository, or without pinning")
    dirty = changed(root)
    if dirty:
        raise JobError(f"pin_code: {root} has changes to tracked files that are not committed ({_describe(dirty)}); "
                       f"the job would run the commit, not what you see: commit or stash them, then start the job "
                       f"again")
    return commit


def _link_ignored(root: Path, copy: Path) -> None:
    """Links in `copy` to what `root` holds that git ignores (each ignored folder or file at its highest level),
    where `copy` has nothing of that name: stages name `.venv/bin/python`, `runs/main/sft2` and the like relative
    to the job's root."""
    p = _git(root, "ls-files", "--others", "--ignored", "--exclude-standard", "--directory")
    for line in p.stdout.splitlines():
        rel = Path(line.rstrip("/"))
        if not line.strip() or NOT_LINKED & set(rel.parts) or rel.suffix in (".pyc", ".egg-info"):
            continue
        dst = copy / rel
        if dst.parent.is_dir() and not (dst.exists() or dst.is_symlink()):
            dst.symlink_to(root / rel, target_is_directory=(root / rel).is_dir())
    venv = root / ".venv"  # the settings name .venv/bin/python, ignored or not
    if venv.is_dir() and not (copy / ".venv").exists():
        (copy / ".venv").symlink_to(venv, target_is_directory=True)


def _make(code: Path, root: Path, commit: str, run_dir: Path) -> None:
    """RUN/code/ as a clone of `root` at `commit`, made whole or not at all (it replaces what is there)."""
    if _git(root, "cat-file", "-e", f"{commit}^{{commit}}").returncode != 0:
        raise JobError(f"{run_dir / PIN} pins commit {commit[:12]}, which the git of this checkout ({root}) does not "
                       f"hold, and {code} must be made: fetch that commit, or run the job from a checkout that has it")
    tmp = code.with_name(f".{CODE}.tmp.{os.getpid()}")
    try:
        shutil.rmtree(tmp, ignore_errors=True)
        for args in (("clone", "--quiet", "--no-checkout", str(root), str(tmp)),
                     ("-C", str(tmp), "checkout", "--quiet", "--detach", commit)):
            p = _git(run_dir, *args)
            if p.returncode != 0:
                raise JobError(f"pin_code: could not make {code} at commit {commit[:12]} from {root}: "
                               f"git {' '.join(args[:3])}: {p.stderr.strip()}")
        _link_ignored(root, tmp)
        if code.exists():
            old = code.with_name(f".{CODE}.old.{os.getpid()}")
            code.rename(old)
            tmp.rename(code)
            shutil.rmtree(old, ignore_errors=True)
        else:
            tmp.rename(code)
    except OSError as e:
        raise JobError(f"pin_code: could not make {code}: {e}") from None
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _write(run_dir: Path, record: dict) -> None:
    tmp = run_dir / (PIN + ".tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n")
    os.replace(tmp, run_dir / PIN)


def ensure(run_dir: Path, root: Path) -> tuple[Path, dict, str]:
    """The pinned code's folder, the pin's record, and what was done (pinned, remade, kept). Pins `root`'s commit
    when the run folder is not pinned yet; makes RUN/code/ again when it is missing; refuses a copy that is not the
    pinned commit as committed."""
    run_dir, root = Path(run_dir).resolve(), Path(root).resolve()
    code = run_dir / CODE
    record = pinned(run_dir)
    if record is None:
        commit = _clean_commit(root)
        run_dir.mkdir(parents=True, exist_ok=True)
        _make(code, root, commit, run_dir)
        record = {"commit": commit, "pinned_at": time.strftime("%Y-%m-%d %H:%M:%S"), "checkout": str(root),
                  "earlier": []}
        _write(run_dir, record)
        return code, record, "pinned"
    commit = record["commit"]
    action = "kept"
    if code != root and not code.exists():
        _make(code, root, commit, run_dir)
        action = "remade"
    elif head(code) != commit:
        raise JobError(f"{code} is not a copy of commit {commit[:12]}, the code this run folder is pinned to "
                       f"({run_dir / PIN}; git there says {head(code) or 'no checkout'}): delete {code} and start "
                       f"the job again from a checkout that holds that commit, which makes it again")
    dirty = changed(code)
    if dirty:
        raise JobError(f"{code}: its tracked files were edited ({_describe(dirty)}), so it is no longer commit "
                       f"{commit[:12]}, the code this run folder is pinned to: undo that (`git -C {code} checkout -- "
                       f".`), or delete {code} to have it made again")
    return code, record, action


def repin(run_dir: Path, root: Path) -> tuple[Path, dict, str]:
    """Moves a pinned run folder to `root`'s current commit (module docstring); code.json keeps the earlier pin."""
    run_dir, root = Path(run_dir).resolve(), Path(root).resolve()
    record = pinned(run_dir)
    if record is None:
        raise JobError(f"--repin: {run_dir} is not pinned (no {PIN}); --pin or `pin_code: true` pins it")
    commit = _clean_commit(root)
    if commit == record["commit"]:
        return ensure(run_dir, root)
    _make(run_dir / CODE, root, commit, run_dir)
    now = time.strftime("%Y-%m-%d %H:%M:%S")
    earlier = list(record.get("earlier", [])) + [{"commit": record["commit"], "pinned_at": record.get("pinned_at"),
                                                  "until": now}]
    record = {"commit": commit, "pinned_at": now, "checkout": str(root), "earlier": earlier}
    _write(run_dir, record)
    return run_dir / CODE, record, "repinned"


def exec_env(code: Path, checkout: Path) -> dict[str, str]:
    """The environment the pinned job runs in: its package first on the import path, and the checkout it was started
    from (where its report goes by default)."""
    from reterm.jobs import CHECKOUT_ENV

    env = dict(os.environ)
    env["PYTHONPATH"] = str(code) + (os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else "")
    env[CHECKOUT_ENV] = str(checkout)
    return env
