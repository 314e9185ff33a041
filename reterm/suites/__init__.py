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
# held-out *families* (never trained on: does it generalise?). `heldout` is the older name of the second.
# `compare_instances` (more new seeds of the training families) is reserved for comparing training methods: never
# trained on, never used to choose a setting, and not part of `all` (it is run only by name).
SPLITS = ("all", "train", "heldout_instances", "heldout_families", "heldout", "compare_instances")
_PARTS = ("train", "heldout_instances", "heldout_families")


def split_ids(name: str, split: str) -> list[str]:
    data = json.loads((suite_dir(name) / "split.json").read_text())
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose {', '.join(SPLITS)}")
    if split == "all":
        return sorted(i for part in _PARTS for i in data.get(part, []))
    if split == "compare_instances" and split not in data:
        raise ValueError(f"suite {name!r} has no compare_instances split")
    return sorted(data.get("heldout_families" if split == "heldout" else split, []))


def load(name: str, split: str = "all"):
    d = tasks_dir(name)
    return load_tasks([d / task_id for task_id in split_ids(name, split)])
