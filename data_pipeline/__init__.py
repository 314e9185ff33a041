"""Recovery-demonstration data pipeline: collect, synthesize, recover, build (one command each, resumable)."""

from __future__ import annotations

from reterm import suites
from reterm.tasks import load_tasks


def add_task_arguments(ap) -> None:
    """The task selection shared by the steps that run tasks: task dirs, or a bundled suite and split."""
    ap.add_argument("paths", nargs="*", help="task dirs (default: the bundled suite)")
    ap.add_argument("--suite", default="basic", help="bundled task suite to take tasks from (when no paths are given)")
    ap.add_argument("--split", default="train", choices=suites.SPLITS,
                    help="which split of the suite: train, heldout_instances (new seeds of the training families), "
                         "heldout_families (families never trained on), or all")


def load_selected_tasks(args):
    """The tasks `add_task_arguments` selected; raises TaskError or ValueError (naming the task) when one is bad."""
    return load_tasks(args.paths) if args.paths else suites.load(args.suite, args.split)
