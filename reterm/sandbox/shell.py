"""The persistent shell that every sandbox backend drives.

How a command runs. One long-lived `bash` (the *launcher*) reads instructions from a byte channel (a pipe into
bubblewrap, or a docker exec socket). For each command the host writes one line that makes the launcher run

    timeout -s TERM -k 1 T  env -i <state env>  bash -c '<cd to state cwd; eval COMMAND; dump state>'

so every command runs in a fresh child bash that starts from the recorded shell state (cwd + exported variables)
and, when it exits, prints its new state in a framed record (not for commands run from a given state, whose
new state is not kept: the verifier's, uploads, file reads). The launcher then prints a framed "done" record with
the exit code. Why not run commands in the launcher itself: a builtin loop (`while :; do :; done`) could then only
be stopped by killing the whole shell, and a command that `exec`s or `exit`s would end the session. With the child,
`timeout` kills the command's whole process group and the launcher survives; the shell state lives on the host
(`ShellState`), which is also what makes `snapshot()` and `fork()` cheap.

What persists between commands: the working directory and variables, as in a terminal. Commands run under
`set -a`, so a plain assignment (`f=$(find ...)`) is exported and carried to the next command like an `export`; the
one difference from a terminal is that programs started afterwards see such variables in their environment. What
does not persist: functions, aliases and `set` options (each command starts a fresh bash); background processes live
on only in the sandbox they were started in (they never survive a snapshot).

Output is stdout+stderr interleaved, streamed into an `OutputCollector` that keeps a head and a tail (64 KiB total
by default) and counts the rest, so a command printing gigabytes never grows host memory.
"""

from __future__ import annotations

import base64
import re
import secrets
import shlex
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Protocol

DEFAULT_OUTPUT_CAP = 64 * 1024
DEFAULT_TIMEOUT = 180.0
# Host-side grace on top of the in-sandbox `timeout` before the shell is declared wedged and restarted.
HOST_GRACE_S = 5.0
_FRAME = b"\x1eR"  # record separator + 'R'; followed by kind (S|D), the per-command token, payload, \x1e
_DROP_ENV = {"_", "SHLVL", "PWD"}
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


class SandboxError(RuntimeError):
    """A sandbox could not be created, driven or cleaned up."""


@dataclass
class ExecResult:
    output: str
    exit_code: int | None
    timed_out: bool
    duration: float
    truncated: bool = False
    output_bytes: int = 0
    shell_restarted: bool = False

    @property
    def ok(self) -> bool:
        return self.exit_code == 0 and not self.timed_out

    def to_dict(self) -> dict:
        return {
            "output": self.output,
            "exit_code": self.exit_code,
            "timed_out": self.timed_out,
            "duration": round(self.duration, 4),
            "truncated": self.truncated,
            "output_bytes": self.output_bytes,
            "shell_restarted": self.shell_restarted,
        }


@dataclass
class ShellState:
    """What a terminal carries from one command to the next: the working directory and exported variables."""

    cwd: str = "/"
    env: dict[str, str] = field(default_factory=dict)

    def copy(self) -> "ShellState":
        return ShellState(self.cwd, dict(self.env))

    def to_dict(self) -> dict:
        return {"cwd": self.cwd, "env": dict(sorted(self.env.items()))}

    @classmethod
    def from_dict(cls, d: dict) -> "ShellState":
        return cls(cwd=d["cwd"], env=dict(d["env"]))


class OutputCollector:
    """Keeps the first and last `cap // 2` bytes of a stream and counts everything."""

    def __init__(self, cap: int = DEFAULT_OUTPUT_CAP):
        self.half = max(cap // 2, 1)
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def add(self, data: bytes | bytearray) -> None:
        if not data:
            return
        self.total += len(data)
        room = self.half - len(self.head)
        if room > 0:
            self.head += data[:room]
            data = data[room:]
        if data:
            self.tail += data
            if len(self.tail) > 2 * self.half:  # trim in batches, not per chunk
                del self.tail[: len(self.tail) - self.half]

    @property
    def truncated(self) -> bool:
        return self.total > len(self.head) + min(len(self.tail), self.half)

    def text(self) -> str:
        tail = bytes(self.tail[-self.half :]) if self.tail else b""
        if not self.truncated:
            return (bytes(self.head) + tail).decode("utf-8", errors="replace")
        omitted = self.total - len(self.head) - len(tail)
        marker = f"\n[... {omitted} bytes of output omitted ...]\n".encode()
        return (bytes(self.head) + marker + tail).decode("utf-8", errors="replace")


class Channel(Protocol):
    """A duplex byte stream into the launcher shell of one sandbox."""

    def write(self, data: bytes) -> None: ...

    def read(self, timeout: float) -> bytes | None:
        """Up to some bytes; None when nothing came within `timeout`; b"" at end of stream."""

    def close(self) -> None: ...


_LAUNCHER_INIT = b"exec 2>&1\nexport LC_ALL=C.UTF-8 2>/dev/null\n"


def _child_script(command: str, cwd: str, token: str, save_state: bool = True) -> str:
    """The child bash's script; without `save_state` (a command run from a given state, whose new state is thrown
    away: the verifier, uploads, file reads) no state record is printed, which spares the three processes the record
    takes (a subshell, `env`, `base64`)."""
    if not save_state:
        return f"cd -- {shlex.quote(cwd)} 2>/dev/null || cd /\nset -a\neval {shlex.quote(command)}\n"
    # fd 77 keeps the original stdout so the state record still reaches the host after `exec >file` in COMMAND.
    return (
        "exec 77>&1\n"
        # one pipe for the directory and the environment (a NUL between them: no path holds one)
        f"__rt_save() {{ {{ printf '\\036RS{token}:'; {{ pwd; printf '\\0'; env -0; }} | base64 -w0; "
        "printf '\\036'; } >&77 2>/dev/null; }\n"
        f"cd -- {shlex.quote(cwd)} 2>/dev/null || cd /\n"
        "trap '__rt_rc=$?; __rt_save; exit $__rt_rc' EXIT\n"
        # set -a: a variable assigned by one command (`f=$(find ...)`) is there for the next, as in a terminal
        "set -a\n"
        f"eval {shlex.quote(command)}\n"
    )


def _as_user_prefix(user: str | None) -> str:
    """`setpriv` switching to `user` (name or uid, with its primary and supplementary groups); "" for root."""
    if user in (None, "", "root", "0"):
        return ""
    q = shlex.quote(user)
    return f'setpriv --reuid={q} --regid="$(id -g {q})" --init-groups -- '


def user_command(command: str, user: str | None) -> str:
    """A one-off command run as `user` (the verifier's [verifier] user); state is not carried back."""
    prefix = _as_user_prefix(user)
    return f"{prefix}bash --noprofile --norc -c {shlex.quote(command)}" if prefix else command


def _launcher_line(command: str, state: ShellState, token: str, timeout: float, user: str | None = None,
                   save_state: bool = True) -> bytes:
    env_args = " ".join(shlex.quote(f"{k}={v}") for k, v in state.env.items() if "\0" not in k + v)
    secs = max(0.01, float(timeout))
    # `timeout` puts the command in its own process group ($! is its leader). On a timeout the group is killed
    # again until it is empty: processes forked while the first signal was in flight (a fork bomb) would survive.
    line = (
        f"timeout -s TERM -k 1 {secs:.3f} {_as_user_prefix(user)}env -i {env_args} bash --noprofile --norc -c "
        f"{shlex.quote(_child_script(command, state.cwd, token, save_state))} </dev/null & __rt_p=$!; wait $__rt_p; "
        f"__rt_rc=$?; if [ $__rt_rc -eq 124 ] || [ $__rt_rc -eq 137 ]; then for __rt_i in 1 2 3 4 5 6 7 8 9 10; "
        f"do kill -KILL -- -$__rt_p 2>/dev/null || break; sleep 0.1; done; fi; "
        f"printf '\\036RD{token}:%d\\036\\n' $__rt_rc\n"
    )
    return line.encode("utf-8", errors="surrogateescape")


def _parse_state(payload: bytes, previous: ShellState) -> ShellState:
    """The state record, or `previous` when it is damaged (a background process wrote into the middle of it)."""
    try:
        cwd_raw, sep, env_raw = base64.b64decode(payload, validate=True).partition(b"\0")
        if not sep:
            return previous
        cwd = cwd_raw.decode("utf-8", errors="surrogateescape").rstrip("\n")
        env: dict[str, str] = {}
        for item in env_raw.split(b"\0"):
            if not item:
                continue
            k, sep, v = item.partition(b"=")
            key = k.decode("ascii")
            if not sep or not _ENV_NAME.match(key):
                return previous
            if key not in _DROP_ENV:
                env[key] = v.decode("utf-8", errors="surrogateescape")
    except (ValueError, UnicodeDecodeError):
        return previous
    if not cwd.startswith("/") or "PATH" not in env:
        return previous
    return ShellState(cwd, env)


class PersistentShell:
    """Runs commands one at a time over a `Channel`, keeping `ShellState` on the host.

    `open_channel` (re)starts the launcher; it is called once at start and again if the shell is found dead or
    wedged, in which case the next `ExecResult` says `shell_restarted=True`.
    """

    def __init__(self, open_channel, state: ShellState, output_cap: int = DEFAULT_OUTPUT_CAP,
                 user: str | None = None):
        self._open_channel = open_channel
        self.state = state
        self.user = user  # commands run from the shell's own state (the agent's) run as this user
        self._aborted = False
        self.output_cap = output_cap
        self._lock = threading.RLock()  # re-entrant: a snapshot holds it (`idle()`) while it reads the files
        self._channel: Channel | None = None
        self._start()

    def _start(self) -> None:
        self._channel = self._open_channel()
        self._channel.write(_LAUNCHER_INIT)

    def restart(self) -> None:
        self._close_channel()
        if self._aborted:
            raise SandboxError("the sandbox was closed while a command ran")
        self._start()

    def abort(self) -> None:
        """Marks the shell as going away (no lock: a command may be running); it will not be restarted."""
        self._aborted = True

    def _close_channel(self) -> None:
        if self._channel is not None:
            try:
                self._channel.close()
            except Exception:
                pass
            self._channel = None

    def close(self) -> None:
        with self._lock:
            self._close_channel()

    @contextmanager
    def idle(self):
        """Holds the shell between two commands: none of another thread starts until the block ends, so a snapshot
        taken inside it sees a quiet filesystem; the holding thread may still run commands (the docker backend reads
        the snapshot's files through this shell). Yields the shell's state."""
        with self._lock:
            yield self.state

    def exec(self, command: str, timeout: float | None = None, output_cap: int | None = None,
             state: ShellState | None = None) -> ExecResult:
        """Runs one command. `output_cap` overrides the shell's cap (internal reads of whole files use it); with
        `state`, the command runs from that state, as root, and the shell's own state is left as it was (the
        verifier, uploads and environment builds use this)."""
        timeout = DEFAULT_TIMEOUT if timeout is None else float(timeout)
        with self._lock:
            if self._channel is None:
                raise SandboxError("shell is closed")
            token = secrets.token_hex(8)
            start = time.monotonic()
            line = _launcher_line(command, state or self.state, token, timeout, None if state else self.user,
                                  save_state=state is None)
            restarted = False
            try:
                self._channel.write(line)
            except (OSError, SandboxError):
                self.restart()
                self._channel.write(line)
                restarted = True
            return self._collect(token, start, timeout, restarted, output_cap, keep_state=state is not None)

    def feed(self, command: str, data: bytes, timeout: float = 120.0) -> ExecResult:
        """Runs `command` in the launcher itself with exactly `data` on its standard input, streamed right after the
        command line: bash reads a script from a pipe or socket one byte at a time, so `head -c` gets the bytes and
        the launcher the line after them, and whatever `command` leaves unread is drained, so no byte of `data` is
        read as a command. For ReTerm's own commands only (a warm fork's `tar -x`): it runs in the launcher's cwd
        and environment, without the per-command `timeout` and process-group kill, and leaves the state as it is.
        One round trip, no container exec: cheaper than the engine's own upload."""
        timeout = float(timeout)
        with self._lock:
            if self._channel is None:
                raise SandboxError("shell is closed")
            token = secrets.token_hex(8)
            start = time.monotonic()
            line = (f"head -c {len(data)} | {{ {command}; __rt_rc=$?; cat >/dev/null; exit $__rt_rc; }}; "
                    f"printf '\\036RD{token}:%d\\036\\n' ${{PIPESTATUS[1]}}\n")
            try:
                self._channel.write(line.encode("utf-8", errors="surrogateescape") + data)
            except OSError:  # the stream broke: restart (which says so if the engine is gone), never re-feed
                self.restart()
                raise SandboxError("the shell's stream broke while data was fed to it; the shell was restarted")
            return self._collect(token, start, timeout, False, None, keep_state=True)

    def _collect(self, token: str, start: float, timeout: float, restarted: bool, cap: int | None,
                 keep_state: bool) -> ExecResult:
        out = OutputCollector(cap or self.output_cap)
        tok = token.encode()
        head_len = len(_FRAME) + 1 + len(tok)
        heads = (_FRAME + b"S" + tok, _FRAME + b"D" + tok)
        buf = bytearray()
        deadline = start + timeout + 1.0 + HOST_GRACE_S
        new_state: ShellState | None = None
        while True:
            remaining = deadline - time.monotonic()
            chunk = self._channel.read(max(remaining, 0.0)) if remaining > 0 else None
            if chunk is None or chunk == b"":
                # Wedged (no done record long after the in-sandbox timeout) or the launcher died: restart it.
                out.add(buf)
                self.restart()
                return ExecResult(
                    out.text(), None, chunk is None, time.monotonic() - start, out.truncated, out.total, True
                )
            buf += chunk
            while True:
                i = buf.find(_FRAME)
                if i < 0:
                    keep = 1 if buf.endswith(_FRAME[:1]) else 0
                    out.add(buf[: len(buf) - keep])
                    del buf[: len(buf) - keep]
                    break
                out.add(buf[:i])
                del buf[:i]
                if len(buf) < head_len:
                    break
                kind = buf[len(_FRAME) : len(_FRAME) + 1]
                if kind not in (b"S", b"D") or bytes(buf[len(_FRAME) + 1 : head_len]) != tok:
                    out.add(buf[:1])
                    del buf[:1]
                    continue
                end = buf.find(b"\x1e", head_len)
                if end < 0:
                    break
                if kind == b"S":
                    # A state record cut short (its writer was killed, or could not fork under a fork bomb) is
                    # followed directly by the next record's head: drop it and parse that record instead.
                    nxt = bytes(buf[end : end + head_len])
                    if len(nxt) < head_len and any(h.startswith(nxt) for h in heads):
                        break  # can't tell yet
                    if nxt in heads:
                        del buf[:end]
                        continue
                payload = bytes(buf[head_len + 1 : end])  # skip the ':' after the token
                del buf[: end + 1]
                if kind == b"S":
                    new_state = _parse_state(payload, self.state)
                    continue
                duration = time.monotonic() - start
                rc = int(payload)
                if new_state is not None and not keep_state:
                    self.state = new_state
                # `timeout` exits 124 when it fired (137 if it had to SIGKILL itself); a command that exits 124 on
                # its own before the deadline is not a timeout.
                timed_out = rc in (124, 137) and duration >= timeout * 0.98
                return ExecResult(out.text(), rc, timed_out, duration, out.truncated, out.total, restarted)
