"""The bundled suite's task families and the rule that splits them.

A family is a generator: `make(rng) -> (instruction, files, metadata)` where `files` maps a path relative to the task
dir to `(content, executable)` and `metadata` holds at least `category` (the error category its first mistake falls
in). Instances differ in names, data and where the mistake sits, not only in a seed.

Every family has a *kind*: the sort of terminal work it is (`KINDS`). The split is decided here, before anything
trains, by one rule:
- a family whose kind is in `NOVEL_KINDS` is held out as *novel*: no training family does that kind of work;
- a family that declares `skills` (two or more training families whose skills its solution needs, in a row) is held
  out as *compositional*;
- every other family trains.
A novel kind can have no training family by construction; `check_registry` enforces the rest (known kinds, skills
that name training families, the minimum counts), so a family added in the wrong place fails the generator, not a
later experiment.
"""

from __future__ import annotations

import random
import zlib
from dataclasses import dataclass, field
from typing import Callable

KINDS = {
    # trained kinds
    "text": "text and log processing (grep, sed, awk, sort, uniq)",
    "data": "CSV, JSON, YAML and INI data",
    "python": "Python scripts and packages (imports, entry points, unit tests)",
    "c-build": "C and Make builds",
    "shell": "shell scripting (quoting, exit codes, set -e, traps, arrays, environment)",
    "git": "git (branches, merges with a conflict, history)",
    "permissions": "permissions and modes",
    "processes": "processes and services started offline (pid files, port files, logs)",
    "file-search": "file search and clean-up",
    # held-out (novel) kinds: no training family does this kind of work
    "sqlite": "SQLite databases (queries, migrations)",
    "archives": "archives and compression",
    "config-validation": "scheduling and configuration files a validator checks",
    "encodings": "encodings and line endings",
    "patches": "patches and diffs",
}
NOVEL_KINDS = frozenset({"sqlite", "archives", "config-validation", "encodings", "patches"})

MIN_FAMILIES = 60
MIN_HELDOUT = 20
MIN_COMPOSITIONAL = 8
MIN_KINDS = 12

Make = Callable[[random.Random], tuple]


@dataclass(frozen=True)
class Family:
    name: str
    make: Make
    kind: str = ""  # one of KINDS; a compositional family's kind is derived from its skills
    skills: tuple[str, ...] = ()  # compositional: the training families whose skills its solution combines
    fixes: int = 1  # how many separate fixes in a row a solution needs
    legacy_index: int | None = field(default=None, compare=False)  # the original twelve: their seed position

    @property
    def heldout(self) -> str | None:
        """None for a training family, else "compositional" or "novel" (the rule above)."""
        if self.skills:
            return "compositional"
        return "novel" if self.kind in NOVEL_KINDS else None

    @property
    def seed_base(self) -> int:
        """Instance seeds start here. The original twelve keep the position-based seeds they were written with; a
        newer family's come from its name, so adding or reordering families never changes another's instances."""
        if self.legacy_index is not None:
            return 1234 + 1000 * self.legacy_index
        return 10_000_000 + (zlib.crc32(self.name.encode()) % 1_000_000) * 1000


def _modules():
    # Imported here, in a fixed order, so the registry (and the suite written from it) is deterministic.
    from reterm.suites.families import (archives, cbuild, compositional, config, core, data, encodings, git, patches,
                                        permissions, processes, python_pkg, search, shell, sqlite, text)

    return [text, data, python_pkg, cbuild, shell, git, permissions, processes, search, sqlite, archives, config,
            encodings, patches, compositional], core


def registry(strict: bool = True) -> list[Family]:
    """Every family, the original twelve first. `strict=False` skips the minimum counts (while families are being
    written)."""
    modules, core = _modules()
    fams = [Family(name, make, kind, legacy_index=i) for i, (name, make, kind) in enumerate(core.LEGACY)]
    for m in modules:
        fams.extend(m.FAMILIES)
    by_name = {f.name: f for f in fams}
    out = []
    for f in fams:
        if f.skills:  # a compositional family's kind names the kinds it combines
            missing = [s for s in f.skills if s not in by_name]
            if missing and strict:
                raise ValueError(f"family {f.name}: skills {missing} name no family")
            kinds = {by_name[s].kind for s in f.skills if s in by_name} or {"unknown"}
            f = Family(f.name, f.make, "+".join(sorted(kinds)), f.skills, f.fixes)
        out.append(f)
    check_registry(out, strict)
    return out


def check_registry(fams: list[Family], strict: bool = True) -> None:
    """The split rule's consequences; a violation names the family."""
    names = [f.name for f in fams]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ValueError(f"families defined twice: {dup}")
    train = {f.name: f for f in fams if f.heldout is None}
    for f in fams:
        if f.skills:
            if len(f.skills) < 2:
                raise ValueError(f"family {f.name}: a compositional family combines at least two training families")
            bad = [s for s in f.skills if s not in train and (strict or s in names)]
            if bad:
                raise ValueError(f"family {f.name}: skills {bad} are not training families")
        elif f.kind not in KINDS:
            raise ValueError(f"family {f.name}: unknown kind {f.kind!r}; choose one of {', '.join(KINDS)}")
    held = [f for f in fams if f.heldout]
    n_comp = sum(f.heldout == "compositional" for f in fams)
    kinds = {k for f in fams for k in f.kind.split("+")}
    if strict and (len(fams) < MIN_FAMILIES or len(held) < MIN_HELDOUT or n_comp < MIN_COMPOSITIONAL or len(kinds) < MIN_KINDS):
        raise ValueError(f"the suite needs >= {MIN_FAMILIES} families ({len(fams)}), >= {MIN_HELDOUT} held out "
                         f"({len(held)}), >= {MIN_COMPOSITIONAL} compositional ({n_comp}) and >= {MIN_KINDS} kinds "
                         f"({len(kinds)})")
