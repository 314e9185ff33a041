"""Bundled task suites shipped inside the package (see `reterm.suites.generate`)."""

from __future__ import annotations

import json
from pathlib import Path

from reterm.tasks import load_tasks

ROOT = Path(__file__).parent


def names() -> list[str]:
    return sorted(p.name for p in ROOT.iterdir() if (p / "split.json").is_file())


def suite_dir(name: str) -> Path:
    d = ROOT / name
    if not (d / "split.json").is_file():
        raise ValueError(f"no bundled suite {name!r}; available: {', '.join(names()) or 'none'}")
    return d


def tasks_dir(name: str) -> Path:
    return suite_dir(name) / "tasks"


# Two evaluation splits, never mixed: held-out *instances* (new seeds of the training families: does it learn?) and
# held-out *families* (never trained on: does it generalise?), the latter in two parts: *compositional* families
# (two trained skills combined) and *novel* ones (a kind of work no training family has). `heldout` is the older name
# of `heldout_families`. Two comparison splits are reserved for comparing training methods and are not part of `all`
# (they run only by name): `compare_instances` (new seeds of the first ten training families, already looked at while
# a reward change was designed, so kept for the record) and `compare_fresh` (new seeds of every family, for the next
# confirmation; nothing may be designed or tuned on it), in two parts: `compare_fresh_train` (the training families'
# instances) and `compare_fresh_heldout` (the held-out families').
SPLITS = ("all", "train", "heldout_instances", "heldout_families", "heldout_compositional", "heldout_novel",
          "heldout", "compare_instances", "compare_fresh", "compare_fresh_train", "compare_fresh_heldout")
_PARTS = ("train", "heldout_instances", "heldout_families")
_RESERVED = ("compare_instances", "compare_fresh")
# derived split -> (the split it is part of, the families it keeps: a list of split.json's `families`, which the
# generator writes by the rule of reterm.suites.families)
_DERIVED = {"heldout_compositional": ("heldout_families", "compositional"),
            "heldout_novel": ("heldout_families", "novel"),
            "compare_fresh_train": ("compare_fresh", "train"),
            "compare_fresh_heldout": ("compare_fresh", "heldout")}


def split_ids(name: str, split: str) -> list[str]:
    data = json.loads((suite_dir(name) / "split.json").read_text())
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose {', '.join(SPLITS)}")
    if split == "all":
        return sorted(i for part in _PARTS for i in data.get(part, []))
    parent, group = _DERIVED.get(split, (split, None))  # a derived split: the instances of one group of families
    if parent in _RESERVED and parent not in data:
        raise ValueError(f"suite {name!r} has no {parent} split")
    if group is not None:
        families = set(data.get("families", {}).get(group, []))
        return sorted(i for i in data.get(parent, []) if i.rsplit("-", 1)[0] in families)
    return sorted(data.get("heldout_families" if split == "heldout" else split, []))


def load(name: str, split: str = "all"):
    d = tasks_dir(name)
    return load_tasks([d / task_id for task_id in split_ids(name, split)])
