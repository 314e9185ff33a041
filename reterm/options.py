"""The choices every entry point shares: the `reterm` CLI, `data_pipeline/` and `recipes/` select tasks, open a
sandbox backend and default their settings through this module, so the same flag means the same thing everywhere.

Constants that a lower layer needs itself are defined there and re-exported here, so that layer never imports
upward: `BACKENDS`, `BASE_IMAGE` and `OUTPUT_CAP` from `reterm.sandbox`, `SPLITS` from `reterm.suites`.
"""

from __future__ import annotations

from pathlib import Path

from reterm import suites
from reterm.sandbox import BACKENDS, Backend, make_backend
from reterm.sandbox.dockerfile import parse_image_map
from reterm.sandbox.images import BASE_TAG as BASE_IMAGE
from reterm.sandbox.shell import DEFAULT_OUTPUT_CAP as OUTPUT_CAP
from reterm.suites import SPLITS
from reterm.tasks import Task, load_tasks

DEFAULT_SUITE = "basic"
DEFAULT_MODEL = "smollm2-135m"  # SmolLM2-135M-Instruct, bundled (`reterm.models` materializes it)
# `reterm.models.GGUF_MODELS` has every name (a test keeps this help in step with it)
MODEL_HELP = (f"{DEFAULT_MODEL} (bundled), qwen2.5-coder-0.5b (its packages installed on request: docs/install.md), "
              "a local HF checkpoint dir, or a served model's name")
SPLIT_HELP = ("with a bundled suite, which split of it: train, heldout_instances (new seeds of the training "
              "families), heldout_families (families never trained on; `heldout` is its older name; "
              "heldout_compositional and heldout_novel are its two parts), all (train and the held-out splits), "
              "compare_instances (new seeds of the first ten training families, kept for the record) or "
              "compare_fresh (new seeds of every family, reserved for the next comparison of training methods; "
              "compare_fresh_train and compare_fresh_heldout are its training and held-out families' instances)")
POLICIES = ("transformers", "openai", "vllm")  # how a model is run: `reterm.agent.policies.make_policy`
# Tokens the policy may generate in one turn, for data collection, evaluation, the recovery benchmark and GRPO
# alike (DESIGN: one reply budget, so no trained turn is longer than what evaluation allows). 128 is what every
# measured run in benchmarks/RESULTS.md used.
REPLY_TOKENS = 128

__all__ = ["BACKENDS", "BASE_IMAGE", "DEFAULT_MODEL", "DEFAULT_SUITE", "MODEL_HELP", "OUTPUT_CAP", "POLICIES",
           "REPLY_TOKENS", "SPLIT_HELP", "SPLITS", "file_in_the_way", "open_backend", "select_tasks"]


def file_in_the_way(path) -> Path | None:
    """The file standing where `path`, or a folder above it, would be: the nearest of them that exists, when it is
    not a folder; None when `path` can be made (or is a folder)."""
    for q in (Path(path), *Path(path).parents):
        if q.exists():
            return None if q.is_dir() else q
    return None


def select_tasks(paths=(), suite: str | None = None, split: str = "all",
                 broken: list | None = None) -> list[Task]:
    """Task dirs (or dirs of task dirs), plus a suite: a bundled one's `split`, or a directory of task dirs. With
    neither, the bundled `basic` suite. Raises TaskError or ValueError naming the bad task, suite or split, also
    when nothing is selected; with a `broken` list, tasks that do not load go there instead (`--skip-broken`)."""
    if not paths and not suite:
        suite = DEFAULT_SUITE
    tasks = load_tasks(list(paths), broken) if paths else []
    if suite in suites.names():
        tasks += suites.load(suite, split)
    elif suite and Path(suite).is_dir():
        tasks += load_tasks([suite], broken)
    elif suite:
        raise ValueError(f"suite {suite!r} is neither a bundled suite ({', '.join(suites.names())}) nor a "
                         f"directory")
    if not tasks:
        raise ValueError("no tasks selected")
    return tasks


def open_backend(name: str = "auto", image_map=(), allow_internet: bool = False,
                 docker_hosts: str | None = None) -> Backend:
    """The sandbox backend `name`, with the image map from `SRC=DST` items (each may hold several, comma
    separated) and the RETERM_IMAGE_MAP variable; `docker_hosts`: the docker backend's pool of engines (default
    RETERM_DOCKER_HOSTS, else DOCKER_HOST). Raises ValueError or SandboxError saying what to fix."""
    return make_backend(name, image_map=parse_image_map(image_map), allow_internet=allow_internet,
                        docker_hosts=docker_hosts)
