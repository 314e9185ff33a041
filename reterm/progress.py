"""The progress bar every long command shows: what it does, how far it is, time spent and time left."""

from __future__ import annotations

import time

from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                           TimeRemainingColumn)


class _Progress(Progress):
    """A rich progress bar that, when its console is not a terminal (a job in the background writing to a log
    file), prints its rows as a line at most every `log_every` seconds instead of staying silent until the end."""

    def __init__(self, *columns, log_every: float = 30.0, **kw):
        super().__init__(*columns, **kw)
        self._log_every = log_every
        self._logged = time.monotonic()

    def update(self, task_id, **kw) -> None:
        super().update(task_id, **kw)
        self._log()

    def advance(self, task_id, advance: float = 1) -> None:
        super().advance(task_id, advance)
        self._log()

    def _log(self) -> None:
        if self.console.is_terminal or self.console.is_jupyter:
            return
        now = time.monotonic()
        if now - self._logged >= self._log_every:
            self._logged = now
            self.console.print(self.make_tasks_table(self.tasks))


def progress_bar(*extra: str, console=None, log_every: float = 30.0) -> Progress:
    """`extra` are text columns over the task's fields (e.g. "passed {task.fields[passed]}"). Written to a file
    or a pipe, the bar's rows are printed as lines every `log_every` seconds."""
    return _Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                     TextColumn("eta"), TimeRemainingColumn(), *(TextColumn(e) for e in extra), console=console,
                     log_every=log_every)
