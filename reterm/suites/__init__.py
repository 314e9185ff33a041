"""Bundled task suites shipped inside the package (see `reterm.suites.generate`)."""

from __future__ import annotations

import json
from pathlib import Path

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


def split_ids(name: str, split: str) -> list[str]:
    data = json.loads((suite_dir(name) / "split.json").read_text())
    if split == "all":
        return sorted(data["train"] + data["heldout"])
    if split not in ("train", "heldout"):
        raise ValueError(f"unknown split {split!r}; choose all, train or heldout")
    return sorted(data[split])


def load(name: str, split: str = "all"):
    from reterm.tasks import load_tasks

    d = tasks_dir(name)
    return load_tasks([d / task_id for task_id in split_ids(name, split)])
