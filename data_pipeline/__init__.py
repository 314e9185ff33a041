"""Recovery-demonstration data pipeline: collect, synthesize, recover, build (one command each, resumable)."""

from __future__ import annotations

import sys

from reterm.options import BACKENDS, SPLIT_HELP, SPLITS, open_backend, select_tasks
from reterm.sandbox import SandboxError
from reterm.tasks import TaskError


def add_task_arguments(ap) -> None:
    """The task selection shared by the steps that run tasks: task dirs, or a suite and split
    (`reterm.options.select_tasks`, as the `reterm` CLI selects them)."""
    ap.add_argument("paths", nargs="*", help="task dirs (default: the bundled suite)")
    ap.add_argument("--suite", default=None,
                    help="a bundled task suite or a directory of task dirs (default without paths: basic)")
    ap.add_argument("--split", default="train", choices=SPLITS, help=SPLIT_HELP)


def load_selected_tasks(args):
    """The tasks `add_task_arguments` selected; raises TaskError or ValueError (naming the task) when one is bad."""
    return select_tasks(args.paths, args.suite, args.split)


def add_backend_arguments(ap) -> None:
    """The sandbox backend, as the `reterm` CLI takes it (the pipeline defaults to local, which needs no daemon)."""
    ap.add_argument("--backend", default="local", choices=BACKENDS,
                    help="sandbox backend; auto = docker when a daemon answers, else local (bubblewrap)")
    ap.add_argument("--image-map", action="append", default=[], metavar="SRC=DST",
                    help="docker backend: run tasks whose image is SRC on local image DST (repeatable; also "
                         "RETERM_IMAGE_MAP=a=b,c=d)")


def open_selected_backend(args):
    """The backend `add_backend_arguments` selected; raises ValueError or SandboxError saying what to fix."""
    return open_backend(args.backend, args.image_map)


def tasks_and_backend(args):
    """The tasks and the backend the flags selected, or None after printing what is wrong (the step exits 2)."""
    try:
        return load_selected_tasks(args), open_selected_backend(args)
    except (TaskError, ValueError, SandboxError) as e:
        print(f"error: {e}", file=sys.stderr)
        return None
