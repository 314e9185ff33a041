"""Stopping a run when told (SIGTERM from a scheduler, Ctrl-C from a user), within seconds.

On the first signal: `STOP` is set (generation loops and episodes check it), every open sandbox and snapshot is
closed from a helper thread (which ends the commands running in them, so worker threads finish at once), and the
main thread raises `SystemExit(128 + signal)`, so `finally` blocks keep what was finished and the exit is non-zero.
A worker that cannot be interrupted (a request to a model server in flight) would hold up the interpreter's exit,
so a watchdog ends the process GRACE_S after the signal whatever is still running. A second signal exits at once.
"""

from __future__ import annotations

import os
import signal
import threading
import time

STOP = threading.Event()
GRACE_S = 8.0
_code = [130]  # the exit status of the signal that set STOP


def stopped() -> SystemExit:
    """The exception a worker thread raises when it sees STOP set: the status the main thread exits with."""
    return SystemExit(_code[0])


def _on_signal(signum, frame) -> None:
    if STOP.is_set():
        os._exit(128 + signum)
    _code[0] = 128 + signum
    STOP.set()
    from reterm.sandbox.base import close_all

    threading.Thread(target=close_all, name="reterm-stop", daemon=True).start()
    threading.Thread(target=_exit_after_grace, args=(128 + signum,), name="reterm-stop-watchdog", daemon=True).start()
    raise SystemExit(128 + signum)


def _exit_after_grace(code: int) -> None:
    time.sleep(GRACE_S)
    os._exit(code)


def install() -> None:
    """Installs the handlers (main thread only); every entry point that runs sandboxes calls it."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, _on_signal)
