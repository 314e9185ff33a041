"""The progress bar every long command shows: what it does, how far it is, time spent and time left."""

from __future__ import annotations

from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)


def progress_bar(*extra: str, console=None) -> Progress:
    """`extra` are text columns over the task's fields (e.g. "passed {task.fields[passed]}")."""
    return Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                    TextColumn("eta"), TimeRemainingColumn(), *(TextColumn(e) for e in extra), console=console)
