"""Writes the bundled `basic` suite from the family generators in `reterm.suites.families`, and checks it.

Every family is built around a mistake agents really make on a first attempt (a guessed path, a script without its
execute bit, a missing PYTHONPATH, ...): the careless command fails with a real, recoverable error, and the tests
only pass once the agent has diagnosed and fixed it. Tasks need no network and run on both backends (the bundled
Dockerfiles start from `reterm/base:bookworm`; the local backend runs them on the host system).

    python -m reterm.suites.generate            # rewrite reterm/suites/basic
    python -m reterm.suites.generate --check    # exit 1 if the committed suite differs from what this writes, or if
                                                # any task's oracle fails, its nop passes or a generic shortcut passes
    python -m reterm.suites.generate --check --families a,b --backend docker --per-family 1

Splits (decided here, before anything trains; the rule is in `reterm.suites.families`):
- `train`: instances of the training families;
- `heldout_instances`: new seeds of every training family (-hNN), never trained on;
- `heldout_families`: instances of the held-out families (compositional and novel), never trained on;
- `compare_instances` (-cNN, the original ten training families only): reserved for the first comparison of training
  methods. It has been looked at while a reward change was designed, so it confirms nothing new;
- `compare_fresh` (-fNN): new seeds of every training family and of every held-out family, for the next comparison
  of training methods; nothing may be designed or tuned on it. Its two parts, `compare_fresh_train` and
  `compare_fresh_heldout`, are derived when loaded (`reterm.suites.split_ids`) from the family lists written here, as
  `heldout_compositional` and `heldout_novel` are from `heldout_families`.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import random
import shutil
import sys
import tempfile
from pathlib import Path

from reterm.suites.families import Family, registry
from reterm.suites.families.common import TEST_SH

SUITE_DIR = Path(__file__).parent / "basic"
# The original twelve families keep their instance counts and seeds (earlier results were measured on them).
LEGACY_VARIANTS = 6
LEGACY_HELDOUT_INSTANCES = 2
HELDOUT_SEED_OFFSET = 500  # held-out instances' seeds stay clear of the training seeds
COMPARE_INSTANCES = 12
COMPARE_SEED_OFFSET = 700
# Newer families: fewer instances each, so that every task can still be checked on every test run.
VARIANTS = 4  # training instances of a training family, or held-out-family instances
HELDOUT_INSTANCES = 2  # new seeds of each training family, never trained on (-hNN)
FRESH_INSTANCES = 3  # compare_fresh: new seeds of every family (-fNN)
FRESH_SEED_OFFSET = 5_000_000


def task_toml(meta: dict) -> str:
    lines = ['version = "1.0"', "", "[metadata]"]
    for k, v in meta.items():
        lines.append(f"{k} = {json.dumps(v)}")
    lines += ["", "[verifier]", "timeout_sec = 60.0", "", "[agent]", "timeout_sec = 300.0", "",
              "[environment]", "build_timeout_sec = 300.0", "cpus = 1", "memory_mb = 1024", ""]
    return "\n".join(lines)


def _content(make, seed: int) -> str:
    """What an instance of a family is made of (instruction and files), to tell repeated instances apart."""
    instruction, files, _ = make(random.Random(seed))
    return json.dumps([instruction, sorted((rel, content) for rel, (content, _) in files.items())])


def distinct_seeds(fam: Family, start: int, n: int, seen: set[str], span: int = 1000) -> list[int]:
    """`n` seeds from `start` upwards whose instances repeat none in `seen` (which grows with them)."""
    seeds: list[int] = []
    for seed in range(start, start + span):
        content = _content(fam.make, seed)
        if content not in seen:
            seen.add(content)
            seeds.append(seed)
            if len(seeds) == n:
                return seeds
    raise ValueError(f"family {fam.name}: fewer than {n} distinct new instances in seeds {start}..{start + span - 1}: "
                     f"its generator varies too little")


def instance_plan(fam: Family) -> list[tuple[str, str, int]]:
    """(task id, split, seed) of every instance of a family, in writing order."""
    base = fam.seed_base
    plan: list[tuple[str, str, int]] = []
    if fam.legacy_index is not None:
        split = "heldout_families" if fam.heldout else "train"
        plan += [(f"{fam.name}-{v:02d}", split, base + v) for v in range(LEGACY_VARIANTS)]
        seen = {_content(fam.make, s) for _, _, s in plan}
        if not fam.heldout:
            held = [base + HELDOUT_SEED_OFFSET + v for v in range(LEGACY_HELDOUT_INSTANCES)]
            plan += [(f"{fam.name}-h{v:02d}", "heldout_instances", s) for v, s in enumerate(held)]
            seen |= {_content(fam.make, s) for s in held}
            # seeds of compare_instances as they were first drawn: scanning upwards, within the family's range
            compare = distinct_seeds(fam, base + COMPARE_SEED_OFFSET, COMPARE_INSTANCES, seen,
                                     span=1000 - COMPARE_SEED_OFFSET)
            plan += [(f"{fam.name}-c{v:02d}", "compare_instances", s) for v, s in enumerate(compare)]
    else:
        seen = set()
        main = distinct_seeds(fam, base, VARIANTS, seen)
        plan += [(f"{fam.name}-{v:02d}", "heldout_families" if fam.heldout else "train", s) for v, s in enumerate(main)]
        if not fam.heldout:
            held = distinct_seeds(fam, base + HELDOUT_SEED_OFFSET, HELDOUT_INSTANCES, seen)
            plan += [(f"{fam.name}-h{v:02d}", "heldout_instances", s) for v, s in enumerate(held)]
    fresh = distinct_seeds(fam, base + FRESH_SEED_OFFSET, FRESH_INSTANCES, seen)
    plan += [(f"{fam.name}-f{v:02d}", "compare_fresh", s) for v, s in enumerate(fresh)]
    return plan


def write_task(root: Path, fam: Family, seed: int, split: str) -> None:
    instruction, files, extra = fam.make(random.Random(seed))
    meta = {"family": fam.name, **extra, "difficulty": "easy", "seed": seed, "author_name": "ReTerm bundled suite",
            "kind": fam.kind, "split": split}
    if fam.heldout:
        meta["heldout"] = fam.heldout
    if fam.skills:
        meta["skills"] = list(fam.skills)
    if fam.fixes > 1:
        meta["fixes"] = fam.fixes
    files = {**files, "instruction.md": (instruction, False), "task.toml": (task_toml(meta), False),
             "tests/test.sh": (TEST_SH, True)}
    for rel, (content, executable) in sorted(files.items()):
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content)
        p.chmod(0o755 if executable else 0o644)


SPLIT_KEYS = ("train", "heldout_instances", "heldout_families", "compare_instances", "compare_fresh")


def write_suite(out: Path, fams: list[Family] | None = None) -> None:
    fams = registry() if fams is None else fams
    tasks_dir = out / "tasks"
    if tasks_dir.exists():
        shutil.rmtree(tasks_dir)
    split: dict = {k: [] for k in SPLIT_KEYS}
    for fam in fams:
        for task_id, part, seed in instance_plan(fam):
            write_task(tasks_dir / task_id, fam, seed, part)
            split[part].append(task_id)
    families = {
        "train": [f.name for f in fams if not f.heldout],
        "heldout": [f.name for f in fams if f.heldout],
        "compositional": [f.name for f in fams if f.heldout == "compositional"],
        "novel": [f.name for f in fams if f.heldout == "novel"],
        "kinds": {f.name: f.kind for f in fams},
        "skills": {f.name: list(f.skills) for f in fams if f.skills},
    }
    (out / "split.json").write_text(json.dumps({**split, "families": families}, indent=2) + "\n")


def _same_tree(a: Path, b: Path) -> bool:
    cmp = filecmp.dircmp(a, b)
    if cmp.left_only or cmp.right_only or cmp.diff_files or cmp.funny_files:
        return False
    _, mismatch, errors = filecmp.cmpfiles(a, b, cmp.common_files, shallow=False)
    return not mismatch and not errors and all(_same_tree(a / s, b / s) for s in cmp.common_dirs)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true",
                    help="compare the committed suite with what this writes, then run every task's oracle, nop and "
                         "generic shortcuts (oracle must score 1, the others 0)")
    ap.add_argument("--out", type=Path, default=SUITE_DIR)
    ap.add_argument("--families", default="", help="comma-separated families: only these are checked (or written, "
                                                   "with --out, for a look at a family being written)")
    ap.add_argument("--backend", default="local", choices=["local", "docker"], help="where --check runs the tasks")
    ap.add_argument("--per-family", type=int, default=0, help="--check runs only this many instances of each family "
                                                             "(0: all)")
    ap.add_argument("--concurrency", type=int, default=4, help="trials at once in --check")
    ap.add_argument("--no-trials", action="store_true", help="--check compares files only")
    ap.add_argument("--draft", action="store_true", help="skip the suite's minimum counts (while writing families)")
    args = ap.parse_args(argv)
    if args.per_family < 0 or args.concurrency < 1:
        ap.error("--per-family must be 0 or more and --concurrency at least 1")
    if args.out.exists() and not args.out.is_dir():
        ap.error(f"--out {args.out} is a file, not a suite folder")
    is_suite = (args.out / "tasks").is_dir() and (args.out / "split.json").is_file()
    if args.check and not is_suite:
        ap.error(f"--out {args.out} holds no suite to check (tasks/ and split.json); without --check it writes one")
    if not args.check and args.families and args.out.resolve() == SUITE_DIR.resolve():
        ap.error("--families writes only those families: give --out (a folder apart); the bundled suite is written "
                 "whole, without --families")
    if not args.check and (args.out / "tasks").exists() and not is_suite:
        ap.error(f"--out {args.out} holds a tasks/ folder but no split.json: not a suite this wrote, and writing would "
                 f"replace that folder; give another --out")
    try:
        fams = registry(strict=not args.draft)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    wanted = [f for f in args.families.split(",") if f]
    unknown = sorted(set(wanted) - {f.name for f in fams})
    if unknown:
        print(f"error: --families names no family: {', '.join(unknown)}", file=sys.stderr)
        return 2
    if args.check:
        with tempfile.TemporaryDirectory() as tmp:
            write_suite(Path(tmp), fams)
            same = _same_tree(Path(tmp) / "tasks", args.out / "tasks") and (
                (Path(tmp) / "split.json").read_text() == (args.out / "split.json").read_text())
        print("suite is up to date" if same else f"suite under {args.out} differs from the generator's output: "
                                                 f"run `python -m reterm.suites.generate`")
        if not same or args.no_trials:
            return 0 if same else 1
        from reterm.suites.verify import check_suite

        problems = check_suite(args.out, families=wanted or None, backend=args.backend, per_family=args.per_family,
                               concurrency=args.concurrency)
        for p in problems:
            print(f"FAIL {p}", file=sys.stderr)
        return 1 if problems else 0
    # written inside --out first (the same file system), then renamed into place, the old suite put back if that
    # fails: a suite is never left half-written, nor lost
    args.out.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".writing-", dir=args.out))
    try:
        write_suite(tmp, [f for f in fams if f.name in wanted] if wanted else fams)
        old = tmp / "old-tasks"
        had = (args.out / "tasks").exists()
        if had:
            os.replace(args.out / "tasks", old)
        try:
            os.replace(tmp / "tasks", args.out / "tasks")
        except BaseException:
            if had:
                os.replace(old, args.out / "tasks")
            raise
        os.replace(tmp / "split.json", args.out / "split.json")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"wrote {len(list((args.out / 'tasks').iterdir()))} tasks to {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
