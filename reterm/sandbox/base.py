"""The sandbox contract shared by the docker and local backends.

Lifecycle guarantees:
- `close()` ends the sandbox's processes and deletes its container / state dir; it is idempotent.
- A `Snapshot` is reference-counted: the sandbox that took it holds one reference, `fork()` takes one more per
  fork *while it copies*; the stored snapshot is deleted when the count drops to zero (`release()`).
- At interpreter exit (normal exit, an exception, SIGTERM turned into SystemExit by the CLI) every sandbox and
  snapshot still open is closed. A SIGKILLed driver cannot clean up: its resources carry the owner's identity and
  `reterm sandbox gc` removes them.
- Background processes never survive `snapshot()`: a snapshot is the filesystem plus the shell state.
"""

from __future__ import annotations

import atexit
import base64
import io
import logging
import shlex
import tarfile
import threading
from abc import ABC, abstractmethod
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, fields, replace
from pathlib import Path, PurePosixPath

from reterm.sandbox.shell import DEFAULT_OUTPUT_CAP, ExecResult, PersistentShell, SandboxError, ShellState

log = logging.getLogger(__name__)


@dataclass
class SandboxSpec:
    """Everything needed to start one sandbox; forks reuse their parent's spec with the snapshot's filesystem."""

    task_id: str
    workdir: str
    shell_state: ShellState
    cpus: float = 1.0
    memory_mb: int = 2048
    pids: int = 512
    network: bool = False
    output_cap: int = DEFAULT_OUTPUT_CAP
    extra: dict = field(default_factory=dict)  # backend-specific (image name, template dir, ...)
    # The environment's own initial state. `shell_state` is where a sandbox's shell starts, which for a fork is the
    # snapshot's state; the verifier must start from this one instead, or it would inherit what the agent exported.
    base_state: ShellState | None = None
    user: str | None = None  # the OS user the agent's commands run as ([agent] user); None = root

    @property
    def initial_state(self) -> ShellState:
        return self.base_state or self.shell_state

    def from_snapshot(self, state: ShellState) -> "SandboxSpec":
        """The spec of a sandbox started from a snapshot whose shell was in `state`."""
        return replace(self, shell_state=state.copy(), base_state=self.initial_state.copy())

    def to_dict(self) -> dict:
        """JSON-ready; `extra` stays behind (it names this machine's images and dirs, not the environment)."""
        d = {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _STATE_FIELDS + ("extra",)}
        return {**d, **{k: getattr(self, k).to_dict() for k in _STATE_FIELDS if getattr(self, k) is not None}}

    @classmethod
    def from_dict(cls, d: dict) -> "SandboxSpec":
        d = dict(d)
        for k in _STATE_FIELDS:
            if d.get(k) is not None:
                d[k] = ShellState.from_dict(d[k])
        return cls(**d)


_STATE_FIELDS = ("shell_state", "base_state")


_open_lock = threading.Lock()
_open: set = set()  # sandboxes and snapshots not yet closed, for the atexit sweep


def _register(obj) -> None:
    with _open_lock:
        _open.add(obj)


def _unregister(obj) -> None:
    with _open_lock:
        _open.discard(obj)


_closing = threading.Lock()  # one sweep at a time: a later caller (atexit) waits for one a stop signal began


@atexit.register
def close_all() -> None:
    """Closes every sandbox and snapshot still open (at exit, and when a run is told to stop)."""
    with _closing:
        with _open_lock:
            items = list(_open)
        # sandboxes first: their containers may pin a snapshot image. One that fails to close does not keep the
        # others open (what it left is `reterm sandbox gc`'s).
        for obj in [o for o in items if isinstance(o, Sandbox)] + [o for o in items if isinstance(o, Snapshot)]:
            try:
                obj.close() if isinstance(obj, Sandbox) else obj._delete()
            except Exception as e:  # noqa: BLE001
                log.warning("could not close %s %s: %s: %s", type(obj).__name__, obj.id, type(e).__name__, e)


class Snapshot:
    """A frozen sandbox: filesystem (backend-specific `ref`) + shell state. Fork it with `fork(n)`."""

    def __init__(self, backend: "Backend", snap_id: str, spec: SandboxSpec, ref):
        self.backend = backend
        self.id = snap_id
        self.spec = spec
        self.ref = ref
        self._refs = 1
        self._lock = threading.Lock()
        self._deleted = False
        _register(self)

    @property
    def shell_state(self) -> ShellState:
        return self.spec.shell_state

    def acquire(self) -> "Snapshot":
        with self._lock:
            if self._deleted:
                raise SandboxError(f"snapshot {self.id} was already released")
            self._refs += 1
        return self

    def release(self) -> None:
        with self._lock:
            if self._deleted:
                return
            self._refs -= 1
            if self._refs > 0:
                return
        self._delete()

    def _delete(self) -> None:
        with self._lock:
            if self._deleted:
                return
            self._deleted = True
        _unregister(self)
        self.backend.delete_snapshot(self)

    @property
    def released(self) -> bool:
        return self._deleted

    def fork(self, n: int) -> list["Sandbox"]:
        return fork(self, n)

    def __enter__(self) -> "Snapshot":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def fork(snapshot: Snapshot, n: int) -> list["Sandbox"]:
    """n independent sandboxes that start from exactly the snapshot's filesystem and shell state."""
    if n < 1:
        raise ValueError(f"fork count must be >= 1, got {n}")
    snapshot.acquire()
    try:
        return snapshot.backend.fork(snapshot, n)
    finally:
        snapshot.release()


def start_in_parallel(start_one, n: int, max_workers: int = 8) -> list["Sandbox"]:
    """`n` sandboxes from `start_one()`, started by up to `max_workers` threads; if any fails, the others are closed
    and its error is raised."""
    with ThreadPoolExecutor(max_workers=max(1, min(n, max_workers))) as pool:
        futures = [pool.submit(start_one) for _ in range(n)]
    out, errors = [], []
    for f in futures:
        try:
            out.append(f.result())
        except BaseException as e:
            errors.append(e)
    if errors:
        for sb in out:
            sb.close()
        raise errors[0]
    return out


class Sandbox(ABC):
    """One live environment for one task. Commands run through a persistent shell (see `reterm.sandbox.shell`)."""

    backend_name: str = "?"

    def __init__(self, backend: "Backend", sandbox_id: str, spec: SandboxSpec):
        self.backend = backend
        self.id = sandbox_id
        self.spec = spec
        self.shell: PersistentShell | None = None
        self._closed = False
        self._close_lock = threading.Lock()
        _register(self)

    # -- commands --------------------------------------------------------------------------------------------
    def exec(self, command: str, timeout: float | None = None, state: ShellState | None = None) -> ExecResult:
        """Runs `command` in the persistent shell. With `state`, it runs from that state and leaves the shell's
        own state untouched (for the verifier, which must not inherit what the agent exported)."""
        if self._closed or self.shell is None:
            raise SandboxError(f"sandbox {self.id} is closed")
        return self.shell.exec(command, timeout, state=state)

    @property
    def shell_state(self) -> ShellState:
        return self.shell.state

    def on_start(self) -> "Sandbox":
        """Called by `Backend.start` on a fresh sandbox: Harbor's log dirs exist, and the agent's user is set up."""
        try:
            res = self.shell.exec("mkdir -p /logs/agent /logs/verifier /logs/artifacts && chmod 777 /logs/agent "
                                  "/logs/artifacts", timeout=30, state=self.shell.state.copy())
            if not res.ok:
                raise SandboxError(f"cannot create /logs in sandbox {self.id}: {res.output.strip()[-300:]}")
            self._enter_agent_user()
        except BaseException:
            self.close()
            raise
        return self

    def _enter_agent_user(self) -> None:
        """A fresh sandbox whose agent runs as a non-root user starts in that user's HOME; the verifier keeps the
        environment's own (root) state."""
        if self.spec.user in (None, "root", "0") or self.spec.base_state is not None:
            return
        q = shlex.quote(self.spec.user)
        res = self.shell.exec(f"getent passwd {q} || getent passwd \"$(id -un {q} 2>/dev/null)\"", timeout=30,
                              state=self.shell.state.copy())
        fields = res.output.strip().splitlines()[0].split(":") if res.ok and res.output.strip() else []
        if len(fields) < 7:
            raise SandboxError(f"[agent] user {self.spec.user!r} does not exist in the task's environment "
                               f"(create it in the Dockerfile, e.g. `RUN useradd -m {self.spec.user}`)")
        self.spec = replace(self.spec, base_state=self.shell.state.copy())
        self.shell.state.env.update(HOME=fields[5], USER=fields[0], LOGNAME=fields[0])

    def file_op_state(self) -> ShellState:
        """Where the host's own file operations in the sandbox (read_file, get_archive, put_archive) run: the agent's
        working directory, so a relative path means what it meant to the agent, with the environment's own variables,
        so nothing the agent exported (a BASH_ENV script that prints, a PATH to tools of its own) reaches them."""
        return ShellState(self.shell.state.cwd, dict(self.spec.initial_state.env))

    def _decode(self, output: str, what: str) -> bytes:
        try:
            return base64.b64decode(output.strip(), validate=True)
        except ValueError:
            raise SandboxError(f"cannot {what} in sandbox {self.id}: its shell's output is not the file's base64 "
                               f"({output.strip()[:120]!r})") from None

    def get_archive(self, path: str, limit: int = 256 * 1024 * 1024) -> bytes:
        """A tar of `path` (file or dir, under its own name); FileNotFoundError if it does not exist. Made inside
        the sandbox, so a planted symlink never reaches a host file."""
        q = shlex.quote(path)
        parent, name = shlex.quote(str(Path(path).parent)), shlex.quote(Path(path).name)
        res = self.shell.exec(f"if [ ! -e {q} ]; then exit 3; fi; tar -C {parent} -cf - {name} | base64 -w0",
                              timeout=300, output_cap=limit * 2, state=self.file_op_state())
        if res.exit_code == 3:
            raise FileNotFoundError(path)
        if res.exit_code != 0 or res.truncated:
            raise SandboxError(f"cannot archive {path} in sandbox {self.id}: {res.output.strip()[:300]}")
        return self._decode(res.output, f"archive {path}")

    def download_dir(self, path: str, dest: Path) -> None:
        """Copies the contents of a sandbox dir into `dest` on the host (nothing when it is missing). What the sandbox
        holds is untrusted: only plain files and dirs are unpacked, never links or devices, never outside `dest`."""
        try:
            data = self.get_archive(path)
        except (FileNotFoundError, SandboxError):
            return
        dest.mkdir(parents=True, exist_ok=True)
        top = PurePosixPath(path).name
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            members = []
            for m in tar.getmembers():
                if m.name == top or not (m.isfile() or m.isdir()):
                    continue
                m.name = str(PurePosixPath(m.name).relative_to(top))
                members.append(m)
            tar.extractall(dest, members=members, filter="data")

    # -- files -----------------------------------------------------------------------------------------------
    @abstractmethod
    def put_archive(self, dest_dir: str, tar_bytes: bytes) -> None:
        """Extracts a tar archive into `dest_dir` (created if missing)."""

    def read_file(self, path: str, limit: int = 16 * 1024 * 1024) -> bytes:
        """The bytes of one file; FileNotFoundError if it does not exist.

        Read through the sandbox's own shell rather than from the host side, so a symlink the agent planted
        resolves inside the sandbox, never to a host file.
        """
        q = shlex.quote(path)
        res = self.shell.exec(
            f"if [ ! -f {q} ]; then exit 3; fi; "
            f"if [ $(stat -L -c %s {q}) -gt {limit} ]; then echo 'file larger than {limit} bytes'; exit 4; fi; "
            f"base64 -w0 {q}",
            timeout=60, output_cap=limit * 2, state=self.file_op_state(),
        )
        if res.exit_code == 3:
            raise FileNotFoundError(path)
        if res.exit_code != 0:
            raise SandboxError(f"cannot read {path} in sandbox {self.id}: {res.output.strip()[:300]}")
        return self._decode(res.output, f"read {path}")

    def read_first_file(self, paths: list[str], limit: int = 16 * 1024 * 1024) -> tuple[str, bytes] | None:
        """The first of `paths` that is a file, and its bytes, read in one command (the verifier's reward.json or
        reward.txt); None when none exists. Read inside the sandbox, as `read_file` is."""
        qs = " ".join(shlex.quote(p) for p in paths)
        res = self.shell.exec(
            f"for p in {qs}; do [ -f \"$p\" ] || continue; "
            f"if [ $(stat -L -c %s -- \"$p\") -gt {limit} ]; then echo \"$p: file larger than {limit} bytes\"; exit 4; fi; "
            f"printf '%s\\n' \"$p\"; base64 -w0 -- \"$p\"; exit 0; done; exit 3",
            timeout=60, output_cap=limit * 2 + 4096, state=self.file_op_state(),
        )
        if res.exit_code == 3:
            return None
        name, sep, data = res.output.partition("\n")
        if res.exit_code != 0 or not sep or name not in paths:
            raise SandboxError(f"cannot read {' or '.join(paths)} in sandbox {self.id}: {res.output.strip()[:300]}")
        return name, self._decode(data, f"read {name}")

    def write_file(self, path: str, data: bytes | str, mode: int = 0o644) -> None:
        data = data.encode() if isinstance(data, str) else data
        p = Path(path)
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            info = tarfile.TarInfo(p.name)
            info.size, info.mode = len(data), mode
            tar.addfile(info, io.BytesIO(data))
        self.put_archive(str(p.parent), buf.getvalue())

    def upload(self, local: str | Path, remote: str) -> None:
        """Copies a local file or directory to `remote` (a directory's contents land inside `remote`)."""
        local = Path(local)
        buf = io.BytesIO()
        with tarfile.open(fileobj=buf, mode="w") as tar:
            if local.is_dir():
                for child in sorted(local.iterdir()):
                    tar.add(child, arcname=child.name)
                dest = remote
            else:
                tar.add(local, arcname=Path(remote).name)
                dest = str(Path(remote).parent)
        self.put_archive(dest, buf.getvalue())

    # -- snapshot / fork -------------------------------------------------------------------------------------
    @abstractmethod
    def snapshot(self) -> Snapshot:
        """Captures the filesystem and the shell state. Background processes are not captured."""

    def fork(self, n: int) -> list["Sandbox"]:
        with self.snapshot() as snap:
            return fork(snap, n)

    # -- lifecycle -------------------------------------------------------------------------------------------
    def close(self) -> None:
        with self._close_lock:
            if self._closed:
                return
            self._closed = True
        _unregister(self)
        # Kill first, then close the shell: a command still running in another thread ends at once (and its
        # shell does not restart), instead of holding the shell's lock until its own timeout.
        if self.shell is not None:
            self.shell.abort()
        try:
            self._destroy()
        finally:
            if self.shell is not None:
                self.shell.close()

    @abstractmethod
    def _destroy(self) -> None:
        """Kills every process and deletes the sandbox's filesystem."""

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> "Sandbox":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class Backend(ABC):
    name: str = "?"

    @abstractmethod
    def prepare(self, task):
        """Builds (or reuses) the task's environment without starting a sandbox; returns the backend's handle to
        it, so a caller can time the build apart from the start."""

    @abstractmethod
    def start(self, task, progress=None) -> Sandbox:
        """Builds (or reuses) the task's environment and starts a sandbox at its initial state."""

    @abstractmethod
    def fork(self, snapshot: Snapshot, n: int) -> list[Sandbox]:
        ...

    @abstractmethod
    def delete_snapshot(self, snapshot: Snapshot) -> None:
        ...

    @abstractmethod
    def export_snapshot(self, snapshot: Snapshot, dest_dir: Path) -> str:
        """Writes the snapshot's filesystem as one portable file under `dest_dir`; returns the file's name. The
        shell state is not in it: it travels in the spec (`SandboxSpec.to_dict`)."""

    def import_snapshot(self, path: Path, spec: SandboxSpec, exported_by: str | None = None) -> Snapshot:
        """A live Snapshot (released like any other) from a file `export_snapshot` wrote, with `spec` as saved
        next to it. `exported_by`, the backend that wrote the file, is checked first: a file from one backend
        cannot be read by the other."""
        if exported_by is not None and exported_by != self.name:
            raise ValueError(f"{path}: exported from the {exported_by} backend; load it with --backend "
                             f"{exported_by}")
        return self._import_snapshot(Path(path), spec)

    @abstractmethod
    def _import_snapshot(self, path: Path, spec: SandboxSpec) -> Snapshot:
        ...
