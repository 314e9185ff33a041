"""The progress bar written to a log file (a job in the background) prints lines as it goes, not only at the end."""

from __future__ import annotations

import io

from rich.console import Console

from reterm.progress import progress_bar


def test_a_bar_written_to_a_file_prints_its_rows_as_it_goes():
    out = io.StringIO()
    console = Console(file=out, force_terminal=False, width=120)
    with progress_bar("passed {task.fields[passed]}", console=console, log_every=0.0) as bar:
        pid = bar.add_task("episodes", total=4, passed=0)
        bar.update(pid, advance=1, passed=1)
        first = out.getvalue()
        bar.advance(pid)
    assert "episodes" in first and "1/4" in first and "passed 1" in first  # before the bar ended
    assert "2/4" in out.getvalue()


def test_between_intervals_a_bar_prints_nothing():
    out = io.StringIO()
    with progress_bar(console=Console(file=out, force_terminal=False, width=120), log_every=3600.0) as bar:
        pid = bar.add_task("episodes", total=4)
        bar.update(pid, advance=1)
        assert out.getvalue() == ""  # the interval has not passed
