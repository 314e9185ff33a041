"""A confirmatory design fixed before anything it judges trains, and results read only against it.

Three steps, each a function (`lock` and `problem` also a command: `python -m reterm.evaluation.design_lock
lock|check`):

- `lock(source, folder)`, the confirm job's `design` stage: refuses a design whose title says DRAFT, or one that git
  does not hold committed as it is (inside a git checkout); copies it to folder/design.md and writes
  folder/design.lock.json (its SHA-256, the commit that holds it, when it was locked). Run again, it only checks that
  the source still is what was locked, and refuses if not: a run folder is never carried on under another design.
  The SHA-256 covers the design's fixed part, everything above its `## Exploratory` heading: what is learned after
  the first run is added under that heading, and changes nothing that is checked.
- `bind(design, out)`, before a comparison (recipes/compare.py `--design`) trains its first run: writes
  out/design-binding.json with the locked design's SHA-256. A folder bound to another design, or holding runs and
  no binding (runs that started before the design was fixed), is refused.
- `problem(design, out)`, for the analysis (reterm.evaluation.confirm_report `--design`): why the primary analysis
  may not be reported (the locked copy missing or edited, the source it was locked from edited since, or another
  design than the runs were bound to), or None.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

LOCK = "design.lock.json"
BINDING = "design-binding.json"


class DesignError(Exception):
    """A design that may not be used, or a folder that may not go on under it; the message says which and why."""


EXPLORATORY = "## Exploratory"


def sha256(path: Path) -> str:
    """The SHA-256 of the design's fixed part: its text up to the heading that starts with EXPLORATORY (what is
    learned after the first run goes there, and may be added), the whole text without one."""
    try:
        text = Path(path).read_text()
    except UnicodeDecodeError as e:
        raise DesignError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start}); a design is a Markdown file") from None
    cut = next((i for i, line in enumerate(text.splitlines(keepends=True)) if line.startswith(EXPLORATORY)), None)
    if cut is not None:
        text = "".join(text.splitlines(keepends=True)[:cut])
    return hashlib.sha256(text.encode()).hexdigest()


def _git(path: Path, *args: str) -> subprocess.CompletedProcess | None:
    """git's answer in `path`'s folder, or None where there is no git to ask."""
    try:
        return subprocess.run(["git", *args], cwd=path.parent, capture_output=True, text=True)
    except FileNotFoundError:
        return None


def committed(path: Path) -> str | None:
    """The commit that last changed `path`, when git holds it unchanged; None outside a git checkout. DesignError when
    git does not hold it, or holds it with changes not committed."""
    path = Path(path).resolve()
    inside = _git(path, "rev-parse", "--is-inside-work-tree")
    if inside is None or inside.returncode != 0:
        return None
    status = _git(path, "status", "--porcelain", "--", path.name).stdout.strip()
    if status.startswith("??"):
        raise DesignError(f"{path}: not committed (git does not track it); commit the design before it is locked, so "
                          f"that the log shows it preceding the runs")
    if status:
        raise DesignError(f"{path}: git holds changes to it that are not committed; commit the design before it is "
                          f"locked, so that the log shows it preceding the runs")
    commit = _git(path, "log", "-1", "--format=%H", "--", path.name).stdout.strip()
    if not commit:
        raise DesignError(f"{path}: not committed; commit the design before it is locked")
    return commit


def lock(source: Path, folder: Path, allow_draft: bool = False) -> dict:
    """The design locked into `folder` (module docstring); the lock's record. `allow_draft`: for toy runs of the job
    (QUICK), whose results are no one's evidence."""
    source, folder = Path(source), Path(folder)
    if not source.is_file():
        raise DesignError(f"{source}: no design there")
    if folder.exists() and not folder.is_dir():
        raise DesignError(f"{folder} is a file; the design is locked into a folder")
    digest = sha256(source)
    lock_file = folder / LOCK
    if lock_file.exists():
        record = _read(lock_file, LOCK_KEYS)
        if record["sha256"] != digest:
            raise DesignError(f"{source} is not the design this run folder was locked to ({lock_file}: SHA-256 "
                              f"{record['sha256'][:12]}, locked {record['locked_at']}; the file now "
                              f"{digest[:12]}): results under two designs are not mixed; restore the design, or "
                              f"start a new run folder for the new one")
        return record
    title = source.read_text().splitlines()[0] if source.stat().st_size else ""
    if "DRAFT" in title.upper() and not allow_draft:
        raise DesignError(f"{source}: its title says it is a draft ({title.strip()!r}); finalize it (section 6 rule 4 "
                          f"first) and commit it before anything it judges runs")
    draft = "DRAFT" in title.upper()
    commit = None if draft else committed(source)  # a draft (toy runs) may be mid-edit
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / ".design.md.tmp"
    shutil.copyfile(source, tmp)
    tmp.replace(folder / "design.md")
    record = {"sha256": digest, "source": str(source.resolve()), "commit": commit, "draft": draft,
              "locked_at": time.strftime("%Y-%m-%d %H:%M:%S")}
    _write(lock_file, record)
    return record


def bind(design: Path, out: Path, runs: list[Path] = ()) -> dict:
    """`out` (a comparison's folder) bound to the locked `design` (module docstring); `runs`: run folders it already
    holds. The binding's record."""
    design, out = Path(design), Path(out)
    record = _locked(design)
    binding = out / BINDING
    if binding.exists():
        bound = _read(binding, BINDING_KEYS)
        if bound["sha256"] != record["sha256"]:
            raise DesignError(f"{out} was started under another design (SHA-256 {bound['sha256'][:12]}, bound "
                              f"{bound['bound_at']}); {design} is {record['sha256'][:12]}: results under two designs "
                              f"are not mixed; start a new folder")
        return bound
    if runs:
        raise DesignError(f"{out} holds runs ({', '.join(p.name for p in runs[:3])}) that started before any design "
                          f"was bound to it; a confirmatory comparison starts in a folder of its own")
    bound = {"sha256": record["sha256"], "design": str(design), "bound_at": time.strftime("%Y-%m-%d %H:%M:%S")}
    out.mkdir(parents=True, exist_ok=True)
    _write(binding, bound)
    return bound


def problem(design: Path | None, out: Path) -> str | None:
    """Why the primary analysis of the comparison in `out` may not be reported against `design`, or None."""
    if design is None:
        return "no design was given (--design): the primary analysis is read only against the design fixed before the runs"
    design = Path(design)
    try:
        record = _locked(design)
    except DesignError as e:
        return str(e)
    binding = Path(out) / BINDING
    if not binding.exists():
        return f"{out} was not bound to a design before its runs ({BINDING} missing)"
    try:
        bound = _read(binding, BINDING_KEYS)
    except DesignError as e:
        return str(e)
    if bound["sha256"] != record["sha256"]:
        return (f"the runs in {out} were bound to another design (SHA-256 {bound['sha256'][:12]}) than {design} "
                f"({record['sha256'][:12]})")
    return None


def _locked(design: Path) -> dict:
    """The lock record of a locked design copy; DesignError if it is missing, unlocked or edited since."""
    if not design.is_file():
        raise DesignError(f"{design}: the design is missing")
    lock_file = design.parent / LOCK
    if not lock_file.exists():
        raise DesignError(f"{design}: not a locked design ({LOCK} missing beside it; the confirm job's design stage "
                          f"makes it)")
    record = _read(lock_file, LOCK_KEYS)
    for path in (design, Path(record["source"])):
        if path.is_file() and sha256(path) != record["sha256"]:
            raise DesignError(f"{path} was edited above its '{EXPLORATORY}' heading after the design was locked "
                              f"({record['locked_at']}, SHA-256 {record['sha256'][:12]}; now {sha256(path)[:12]})")
    return record


LOCK_KEYS = ("sha256", "source", "locked_at")  # what a lock record holds (and is read for)
BINDING_KEYS = ("sha256", "bound_at")


def _read(path: Path, keys: tuple[str, ...] = ("sha256",)) -> dict:
    """A lock or binding record holding `keys` as text; DesignError naming the file if it is not one."""
    try:
        record = json.loads(path.read_text())
        if isinstance(record, dict) and all(isinstance(record.get(k), str) for k in keys):
            return record
    except (OSError, ValueError):  # JSONDecodeError, UnicodeDecodeError
        pass
    raise DesignError(f"{path}: not a design record (JSON with {', '.join(keys)}); it was damaged or written by "
                      f"something else: restore it, or start a new run folder")


def draft(design: Path) -> bool:
    """Whether the locked design was a draft, locked for a toy run."""
    return bool(_read(Path(design).parent / LOCK).get("draft"))


def _write(path: Path, record: dict) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n")
    tmp.replace(path)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Lock a confirmatory design, bind a comparison to it, or check one.")
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("lock", help="copy a committed, final design into a folder and lock it there")
    p.add_argument("source", type=Path)
    p.add_argument("folder", type=Path)
    p.add_argument("--allow-draft", action="store_true", help="lock a draft (toy runs of the job only)")
    p = sub.add_parser("check", help="say whether a comparison's primary analysis may be reported against a design")
    p.add_argument("design", type=Path)
    p.add_argument("out", type=Path)
    a = ap.parse_args(argv)
    try:
        if a.cmd == "lock":
            record = lock(a.source, a.folder, a.allow_draft)
            print(f"design locked: {a.folder / 'design.md'} (SHA-256 {record['sha256'][:12]}, commit "
                  f"{record['commit'] or 'none: not a git checkout'}, {record['locked_at']})")
            return 0
        why = problem(a.design, a.out)
        print(why or f"{a.out} is bound to {a.design}: the primary analysis may be reported")
        return 2 if why else 0
    except DesignError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
