"""Recovery-demonstration data pipeline: collect, synthesize, recover, build (one command each, resumable)."""

from __future__ import annotations


def add_task_arguments(ap) -> None:
    """The task selection shared by the steps that run tasks: task dirs, or a bundled suite and split."""
    ap.add_argument("paths", nargs="*", help="task dirs (default: the bundled suite)")
    ap.add_argument("--suite", default="basic")
    ap.add_argument("--split", default="train", choices=["all", "train", "heldout"])


def load_selected_tasks(args):
    """The tasks `add_task_arguments` selected; raises TaskError or ValueError (naming the task) when one is bad."""
    from reterm import suites
    from reterm.tasks import load_tasks

    return load_tasks(args.paths) if args.paths else suites.load(args.suite, args.split)
