"""The `local` backend: bubblewrap sandboxes over the host's read-only system dirs.

Filesystem. The sandbox root is a tmpfs that bubblewrap builds; the host's `/usr`, `/etc`, `/bin`, `/lib*` and
`/sbin` are bound read-only (one by one: bubblewrap 0.8 cannot create mount points inside a read-only bind of `/`),
and a fixed set of writable dirs (`/root`, `/tmp`, `/app`, `/tests`, `/logs`, `/usr/local`, ...) plus every top-level
dir the environment build writes to are bound from the sandbox's own state dir (`<RETERM_HOME>/sandboxes/<id>/fs`).
A snapshot is a copy of that `fs` dir; a fork is a new sandbox over a copy of the snapshot.

Environment. The task's Dockerfile is *interpreted*: `FROM` stands for the host system, `WORKDIR`, `ENV`, `ARG`,
`COPY`/`ADD` (local files) and `RUN` (run inside a build sandbox) are applied; `LABEL`, `EXPOSE`, `CMD`,
`ENTRYPOINT`, `HEALTHCHECK`, `STOPSIGNAL` and `MAINTAINER` are ignored (they change neither files nor the shell);
anything else is an error naming the instruction. The result is cached by a hash of the environment dir.

Isolation. New pid, network, ipc and uts namespaces; `--die-with-parent`; the host environment is never passed in
(`--clearenv`); capabilities are cut to Docker's default set; `/etc/shadow` and `/etc/gshadow` are masked. Where the
cgroup filesystem is writable (root on most machines), each sandbox gets its own cgroup with pids, memory and cpu
limits, which is what contains a fork bomb; elsewhere a warning says the limits are not enforced.
"""

from __future__ import annotations

import fnmatch
import glob
import hashlib
import io
import json
import logging
import os
import queue
import select
import shlex
import shutil
import signal
import subprocess
import tarfile
import threading
import time
from pathlib import Path

from reterm.sandbox import dockerfile as dfile
from reterm.sandbox.base import Backend, Sandbox, SandboxSpec, Snapshot
from reterm.sandbox.resources import new_id, read_owner_file, remove_tree, state_root, write_owner_file
from reterm.sandbox.shell import DEFAULT_OUTPUT_CAP, PersistentShell, SandboxError, ShellState

log = logging.getLogger(__name__)

LOCAL_BUILD_VERSION = "1"
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Top-level dirs every local sandbox owns (writable); `usr/local` is bound over the read-only /usr.
WRITABLE_DIRS = ("root", "tmp", "home", "opt", "srv", "var", "run", "mnt", "app", "tests", "logs", "solution",
                 "usr/local")
SYSTEM_DIRS = ("usr", "etc", "bin", "sbin", "lib", "lib32", "lib64", "libx32")
MASKED_FILES = ("/etc/shadow", "/etc/gshadow", "/etc/shadow-", "/etc/gshadow-")
DEFAULT_CAPS = ("CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID", "CAP_KILL", "CAP_SETGID",
                "CAP_SETUID", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_MKNOD",
                "CAP_AUDIT_WRITE", "CAP_SETFCAP")
IGNORED_INSTRUCTIONS = {"LABEL", "EXPOSE", "CMD", "ENTRYPOINT", "HEALTHCHECK", "STOPSIGNAL", "MAINTAINER"}
INBOX = "/.reterm/inbox"


class BuildError(SandboxError):
    pass


def bwrap_path() -> str:
    path = shutil.which("bwrap")
    if not path:
        raise SandboxError(
            "the local backend needs bubblewrap, which is not installed: `apt-get install -y bubblewrap` "
            "(Debian/Ubuntu) or `dnf install bubblewrap`; or use --backend docker"
        )
    return path


# --- process spawning -----------------------------------------------------------------------------------------
# bubblewrap's --die-with-parent uses PR_SET_PDEATHSIG, which fires when the *thread* that forked the child exits.
# Sandboxes are created from short-lived worker threads too, so every bwrap is spawned from one keeper thread that
# lives as long as the process.
_spawn_q: "queue.Queue" = queue.Queue()
_keeper: threading.Thread | None = None
_keeper_lock = threading.Lock()


def _keeper_loop() -> None:
    while True:
        fn, box = _spawn_q.get()
        try:
            box["result"] = fn()
        except BaseException as e:  # handed back to the caller
            box["error"] = e
        box["done"].set()


def _in_keeper(fn):
    global _keeper
    with _keeper_lock:
        if _keeper is None or not _keeper.is_alive():
            _keeper = threading.Thread(target=_keeper_loop, name="reterm-bwrap-keeper", daemon=True)
            _keeper.start()
    box = {"done": threading.Event()}
    _spawn_q.put((fn, box))
    box["done"].wait()
    if "error" in box:
        raise box["error"]
    return box["result"]


# --- cgroups --------------------------------------------------------------------------------------------------
class Cgroup:
    """Per-sandbox cgroup (v1 pids/memory/cpu hierarchies, or v2 unified). `paths` are the dirs created."""

    ROOT = Path(os.environ.get("RETERM_CGROUP_ROOT", "/sys/fs/cgroup"))
    _warned = False

    def __init__(self, name: str, pids: int, memory_mb: int, cpus: float):
        self.paths: list[Path] = []
        try:
            if (self.ROOT / "cgroup.controllers").exists():
                self._make_v2(name, pids, memory_mb, cpus)
            else:
                self._make_v1(name, pids, memory_mb, cpus)
        except OSError as e:
            self.remove()
            if not Cgroup._warned:
                Cgroup._warned = True
                log.warning("cgroups not writable (%s): local sandboxes run without pids/memory/cpu limits", e)

    def _make_v1(self, name, pids, memory_mb, cpus) -> None:
        settings = {
            "pids": {"pids.max": str(pids)},
            "memory": {"memory.limit_in_bytes": str(memory_mb * 1024 * 1024)},
            "cpu": {"cpu.cfs_period_us": "100000", "cpu.cfs_quota_us": str(max(1000, int(cpus * 100000)))},
        }
        for ctrl, values in settings.items():
            base = self.ROOT / ctrl
            if not base.is_dir():
                if ctrl == "pids":
                    raise OSError(f"{base} missing")
                continue
            d = base / "reterm" / name
            d.mkdir(parents=True, exist_ok=True)
            self.paths.append(d)
            for k, v in values.items():
                (d / k).write_text(v)

    def _make_v2(self, name, pids, memory_mb, cpus) -> None:
        parent = self.ROOT / "reterm"
        parent.mkdir(exist_ok=True)
        for p in (self.ROOT, parent):
            (p / "cgroup.subtree_control").write_text("+pids +memory +cpu")
        d = parent / name
        d.mkdir(exist_ok=True)
        self.paths.append(d)
        (d / "pids.max").write_text(str(pids))
        (d / "memory.max").write_text(str(memory_mb * 1024 * 1024))
        (d / "cpu.max").write_text(f"{max(1000, int(cpus * 100000))} 100000")

    @classmethod
    def existing(cls, name: str) -> "Cgroup":
        """The cgroup dirs a sandbox called `name` left behind (for gc), without creating anything."""
        cg = cls.__new__(cls)
        cg.paths = [p for p in [cls.ROOT / "reterm" / name] + [cls.ROOT / c / "reterm" / name
                                                                for c in ("pids", "memory", "cpu")] if p.is_dir()]
        return cg

    @property
    def procs_files(self) -> list[str]:
        return [str(p / "cgroup.procs") for p in self.paths]

    def kill_all(self) -> None:
        for _ in range(50):
            pids = set()
            for f in self.procs_files:
                try:
                    pids.update(int(x) for x in Path(f).read_text().split())
                except OSError:
                    pass
            if not pids:
                return
            for pid in pids:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            time.sleep(0.02)

    def remove(self) -> None:
        for p in self.paths:
            for _ in range(50):
                try:
                    p.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.02)
        self.paths = []


def remove_stale_cgroups(alive_names: set[str]) -> int:
    """Removes ReTerm cgroups whose sandbox dir is gone (used by gc)."""
    removed = 0
    for base in [Cgroup.ROOT / "reterm"] + [Cgroup.ROOT / c / "reterm" for c in ("pids", "memory", "cpu")]:
        if not base.is_dir():
            continue
        for d in base.iterdir():
            if d.is_dir() and d.name not in alive_names:
                try:
                    d.rmdir()
                    removed += 1
                except OSError:
                    pass
    return removed


# --- channel --------------------------------------------------------------------------------------------------
class _PipeChannel:
    def __init__(self, proc: subprocess.Popen):
        self.proc = proc
        self._out = proc.stdout.fileno()
        self._in = proc.stdin.fileno()

    def write(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            n = os.write(self._in, view)
            view = view[n:]

    def read(self, timeout: float) -> bytes | None:
        r, _, _ = select.select([self._out], [], [], timeout)
        if not r:
            return None
        return os.read(self._out, 1 << 16)

    def close(self) -> None:
        for f in (self.proc.stdin, self.proc.stdout):
            try:
                f.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def _copy_tree(src: Path, dst: Path) -> None:
    # cp -a keeps modes, owners, symlinks and hard links, and reflinks where the filesystem can.
    subprocess.run(["cp", "-a", "--reflink=auto", str(src), str(dst)], check=True)


class LocalSandbox(Sandbox):
    backend_name = "local"

    def __init__(self, backend: "LocalBackend", spec: SandboxSpec, fs_source: Path | None, copy: bool = True):
        super().__init__(backend, new_id("sb"), spec)
        self.dir = backend.root / "sandboxes" / self.id
        self.cgroup: Cgroup | None = None
        self._proc: subprocess.Popen | None = None
        try:
            write_owner_file(self.dir, "sandbox", task=spec.task_id)
            (self.dir / "inbox").mkdir()
            if fs_source is not None and copy:
                _copy_tree(fs_source, self.dir / "fs")
            elif fs_source is not None:
                fs_source.rename(self.dir / "fs")
            else:
                (self.dir / "fs").mkdir()
            for rel in WRITABLE_DIRS:
                (self.dir / "fs" / rel).mkdir(parents=True, exist_ok=True)
            os.chmod(self.dir / "fs" / "tmp", 0o1777)
            self.cgroup = Cgroup(self.id, spec.pids, spec.memory_mb, spec.cpus)
            self.shell = PersistentShell(self._open_channel, spec.shell_state.copy(), spec.output_cap)
        except BaseException:
            self.close()
            raise

    @property
    def fs(self) -> Path:
        return self.dir / "fs"

    def _bwrap_argv(self) -> list[str]:
        argv = [bwrap_path()]
        for name in SYSTEM_DIRS:
            host = Path("/") / name
            if host.is_symlink():
                argv += ["--symlink", os.readlink(host), str(host)]
            elif host.is_dir():
                argv += ["--ro-bind", str(host), str(host)]
        for f in MASKED_FILES:
            if os.path.exists(f):
                argv += ["--ro-bind", "/dev/null", f]
        argv += ["--proc", "/proc", "--dev", "/dev"]
        fs = self.fs
        for entry in sorted(fs.iterdir()):
            if entry.name == "usr":
                continue
            argv += ["--bind", str(entry), f"/{entry.name}"]
        if (fs / "usr" / "local").is_dir() and Path("/usr/local").is_dir():
            argv += ["--bind", str(fs / "usr" / "local"), "/usr/local"]
        argv += ["--ro-bind", str(self.dir / "inbox"), INBOX]
        argv += ["--unshare-pid", "--unshare-ipc", "--unshare-uts", "--hostname", "sandbox"]
        if not self.spec.network:
            argv += ["--unshare-net"]
        argv += ["--die-with-parent", "--new-session", "--clearenv", "--setenv", "PATH", DEFAULT_PATH,
                 "--chdir", "/"]
        if os.geteuid() == 0:
            argv += ["--cap-drop", "ALL"]
            for cap in DEFAULT_CAPS:
                argv += ["--cap-add", cap]
        else:
            argv += ["--unshare-user", "--uid", "0", "--gid", "0"]
        argv += ["bash", "--noprofile", "--norc"]
        return argv

    def _open_channel(self) -> _PipeChannel:
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        argv = self._bwrap_argv()
        procs = self.cgroup.procs_files if self.cgroup else []
        # Join the cgroups before exec'ing bwrap so every process of the sandbox is counted from the start.
        wrapper = ["/bin/sh", "-c", 'for f in $0; do echo $$ > "$f" || exit 97; done; exec "$@"', " ".join(procs)]

        def spawn():
            return subprocess.Popen(wrapper + argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, env={"PATH": DEFAULT_PATH}, start_new_session=True)

        self._proc = _in_keeper(spawn)
        return _PipeChannel(self._proc)

    # -- files -----------------------------------------------------------------------------------------------
    def put_archive(self, dest_dir: str, tar_bytes: bytes) -> None:
        # The archive goes in through a host-only inbox and is unpacked *inside* the sandbox, so symlinks the agent
        # planted can never redirect a host-side write.
        name = new_id("in") + ".tar"
        fd = os.open(self.dir / "inbox" / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(tar_bytes)
            res = self.exec(f"mkdir -p {shlex.quote(dest_dir)} && tar -xf {INBOX}/{name} --no-same-owner "
                            f"-C {shlex.quote(dest_dir)}", timeout=120)
        finally:
            (self.dir / "inbox" / name).unlink(missing_ok=True)
        if not res.ok:
            raise SandboxError(f"upload to {dest_dir} failed in sandbox {self.id}: {res.output.strip()[-500:]}")

    # -- snapshot / lifecycle --------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        with self.shell.idle() as state:  # no command runs while the filesystem is copied
            return self.backend.snapshot_dir(self.fs, self.spec, state)

    def close(self, keep_fs_at: Path | None = None) -> None:
        """Ends the sandbox; with `keep_fs_at`, its filesystem is moved there instead of deleted (builds)."""
        self._keep_fs_at = keep_fs_at
        super().close()

    def _destroy(self) -> None:
        if self._proc is not None:
            try:
                os.killpg(self._proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            self._proc.wait()
        if self.cgroup is not None:
            self.cgroup.kill_all()
            self.cgroup.remove()
        keep = getattr(self, "_keep_fs_at", None)
        if keep is not None and self.fs.exists():
            self.fs.rename(keep)
        remove_tree(self.dir)


def _hash_dir(h, root: Path) -> None:
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            p = Path(dirpath) / name
            rel = p.relative_to(root).as_posix()
            st = p.lstat()
            h.update(f"{rel}\0{st.st_mode:o}\0".encode())
            if p.is_symlink():
                h.update(os.readlink(p).encode())
            else:
                h.update(p.read_bytes())


class LocalBackend(Backend):
    name = "local"

    def __init__(self, root: Path | None = None, output_cap: int | None = None, allow_internet: bool = False):
        bwrap_path()
        self.root = Path(root) if root else state_root()
        for sub in ("sandboxes", "snapshots", "envs"):
            (self.root / sub).mkdir(parents=True, exist_ok=True)
        self.output_cap = output_cap
        self.allow_internet = allow_internet
        self._build_locks: dict[str, threading.Lock] = {}
        self._locks_lock = threading.Lock()

    # -- environment build -----------------------------------------------------------------------------------
    def _env_key(self, task) -> str:
        h = hashlib.sha256(f"local-{LOCAL_BUILD_VERSION}\0{task.workdir}\0".encode())
        if task.environment_dir is not None:
            h.update(task.dockerfile.read_bytes())
            _hash_dir(h, task.environment_dir)
        return h.hexdigest()[:16]

    def prepare(self, task) -> Path:
        """The built environment for `task` (cached): a dir with `fs/` and `meta.json`."""
        key = self._env_key(task)
        target = self.root / "envs" / f"{task.id[:40]}-{key}"
        with self._locks_lock:
            lock = self._build_locks.setdefault(key, threading.Lock())
        with lock:
            if (target / "meta.json").is_file():
                return target
            tmp = self.root / "envs" / f".build-{new_id('b')}"
            write_owner_file(tmp, "build", task=task.id)
            try:
                meta = self._build(task, tmp)
                (tmp / "meta.json").write_text(json.dumps(meta))
                try:
                    tmp.rename(target)
                except OSError:  # another process built it first
                    remove_tree(tmp)
            except BaseException:
                remove_tree(tmp)
                raise
            return target

    def _build(self, task, out: Path) -> dict:
        env = {"PATH": DEFAULT_PATH, "HOME": "/root", "LANG": "C.UTF-8"}
        workdir = task.workdir or "/root"
        fs = out / "fs"
        for rel in WRITABLE_DIRS:
            (fs / rel).mkdir(parents=True, exist_ok=True)
        if task.dockerfile is None:
            return {"env": env, "workdir": workdir}
        path = task.dockerfile
        instrs = dfile.parse(path)
        # First pass: every top-level dir the build writes to must exist before the build sandbox starts, because
        # its binds are fixed at start.
        args: dict[str, str] = {}
        penv = dict(env)
        pwork = workdir
        froms = 0
        for ins in instrs:
            if ins.keyword == "FROM":
                froms += 1
                if froms > 1:
                    raise BuildError(f"{path}:{ins.line}: multi-stage builds (a second FROM) need --backend docker")
            elif ins.keyword in ("ENV", "ARG"):
                for k, v in dfile.parse_key_values(ins, path):
                    (penv if ins.keyword == "ENV" else args)[k] = dfile.substitute(v, {**args, **penv})
            elif ins.keyword == "WORKDIR":
                pwork = os.path.join(pwork, dfile.substitute(ins.args.strip(), {**args, **penv}))
                self._writable_top(path, ins, pwork, fs)
            elif ins.keyword in ("COPY", "ADD"):
                dest = self._copy_args(path, ins, {**args, **penv})[1]
                self._writable_top(path, ins, os.path.join(pwork, dest), fs)
        spec = SandboxSpec(task.id, "/", ShellState("/", dict(env)), task.limits.cpus, task.limits.memory_mb,
                           task.limits.pids, network=False, output_cap=self.output_cap or DEFAULT_OUTPUT_CAP)
        box = LocalSandbox(self, spec, fs, copy=False)
        deadline = time.monotonic() + task.limits.build_timeout_sec
        try:
            args = {}
            for ins in instrs:
                subst = {**args, **box.shell.state.env}
                kw = ins.keyword
                if kw == "FROM" or kw in IGNORED_INSTRUCTIONS:
                    continue
                if kw == "ENV":
                    for k, v in dfile.parse_key_values(ins, path):
                        box.shell.state.env[k] = dfile.substitute(v, {**args, **box.shell.state.env})
                elif kw == "ARG":
                    for k, v in dfile.parse_key_values(ins, path):
                        args.setdefault(k, dfile.substitute(v, subst))
                elif kw == "WORKDIR":
                    workdir = os.path.join(workdir, dfile.substitute(ins.args.strip(), subst))
                    box.exec(f"mkdir -p {shlex.quote(workdir)}", timeout=30)
                elif kw in ("COPY", "ADD"):
                    self._apply_copy(box, task, path, ins, workdir, subst)
                elif kw == "RUN":
                    cmd = ins.json_args()
                    command = shlex.join(cmd) if cmd is not None else ins.args
                    res = box.exec(command, timeout=max(1.0, deadline - time.monotonic()),
                                   state=ShellState(workdir, {**args, **box.shell.state.env}))
                    if not res.ok:
                        why = "timed out" if res.timed_out else f"exited {res.exit_code}"
                        raise BuildError(f"{path}:{ins.line}: RUN {why} in the local backend "
                                         f"(host system dirs are read-only there; use --backend docker if the "
                                         f"step must change them):\n{res.output[-2000:]}")
                elif kw == "USER" and ins.args.strip() in ("root", "0", "root:root", "0:0"):
                    continue
                else:
                    raise BuildError(f"{path}:{ins.line}: the local backend cannot apply `{kw}` "
                                     f"(supported: WORKDIR, ENV, ARG, COPY, ADD, RUN); use --backend docker")
            env = dict(box.shell.state.env)
        finally:
            box.close(keep_fs_at=fs)
        return {"env": env, "workdir": workdir}

    @staticmethod
    def _writable_top(path: Path, ins, target: str, fs: Path) -> None:
        norm = os.path.normpath(target)
        parts = [p for p in norm.split("/") if p]
        if not parts:
            raise BuildError(f"{path}:{ins.line}: {ins.keyword} to / is not possible in the local backend")
        if parts[0] in SYSTEM_DIRS and not norm.startswith("/usr/local"):
            raise BuildError(f"{path}:{ins.line}: {ins.keyword} writes to {norm}, a read-only host system dir in "
                             f"the local backend; use --backend docker")
        (fs / parts[0]).mkdir(parents=True, exist_ok=True)

    @staticmethod
    def _copy_args(path: Path, ins, subst) -> tuple[list[str], str, dict]:
        flags: dict[str, str] = {}
        items = ins.json_args()
        if items is None:
            items = shlex.split(ins.args)
        while items and items[0].startswith("--"):
            k, _, v = items.pop(0)[2:].partition("=")
            flags[k] = v
        if "from" in flags:
            raise BuildError(f"{path}:{ins.line}: {ins.keyword} --from needs --backend docker")
        if len(items) < 2:
            raise BuildError(f"{path}:{ins.line}: {ins.keyword} needs a source and a destination")
        items = [dfile.substitute(i, subst) for i in items]
        return items[:-1], items[-1], flags

    def _apply_copy(self, box: LocalSandbox, task, path: Path, ins, workdir: str, subst) -> None:
        sources, dest, flags = self._copy_args(path, ins, subst)
        ctx = task.environment_dir.resolve()
        dest_abs = os.path.join(workdir, dest)
        matched: list[Path] = []
        for src in sources:
            if "://" in src:
                raise BuildError(f"{path}:{ins.line}: {ins.keyword} from a URL needs network; not supported")
            hits = sorted(glob.glob(str(ctx / src))) if any(c in src for c in "*?[") else [str(ctx / src)]
            for hit in hits:
                p = Path(hit).resolve()
                if not str(p).startswith(str(ctx)) or not p.exists():
                    raise BuildError(f"{path}:{ins.line}: {ins.keyword} source {src!r} not found in {ctx}")
                matched.append(p)
        if not matched:
            raise BuildError(f"{path}:{ins.line}: {ins.keyword} sources {sources} match nothing in {ctx}")
        buf = io.BytesIO()
        into_dir = dest.endswith("/") or len(matched) > 1 or any(m.is_dir() for m in matched)
        with tarfile.open(fileobj=buf, mode="w") as tar:
            for m in matched:
                if m.is_dir():
                    for child in sorted(m.iterdir()):
                        tar.add(child, arcname=child.name, filter=_dockerignore_filter(ctx))
                elif ins.keyword == "ADD" and tarfile.is_tarfile(m):
                    with tarfile.open(m) as inner:
                        for member in inner.getmembers():
                            tar.addfile(member, inner.extractfile(member) if member.isfile() else None)
                else:
                    tar.add(m, arcname=m.name if into_dir else os.path.basename(dest_abs))
        target_dir = dest_abs if into_dir else os.path.dirname(dest_abs)
        box.put_archive(target_dir, buf.getvalue())
        if flags.get("chown"):
            box.exec(f"chown -R {shlex.quote(flags['chown'])} {shlex.quote(dest_abs)}", timeout=60)
        if flags.get("chmod"):
            box.exec(f"chmod -R {shlex.quote(flags['chmod'])} {shlex.quote(dest_abs)}", timeout=60)

    # -- sandboxes -------------------------------------------------------------------------------------------
    def spec_for(self, task, meta: dict) -> SandboxSpec:
        cwd = task.workdir or meta["workdir"]
        return SandboxSpec(
            task_id=task.id, workdir=cwd, shell_state=ShellState(cwd, dict(meta["env"])),
            cpus=task.limits.cpus, memory_mb=task.limits.memory_mb, pids=task.limits.pids,
            network=bool(task.allow_internet and self.allow_internet),
            output_cap=self.output_cap or DEFAULT_OUTPUT_CAP,
        )

    def start(self, task, progress=None) -> LocalSandbox:
        env_dir = self.prepare(task)
        meta = json.loads((env_dir / "meta.json").read_text())
        return LocalSandbox(self, self.spec_for(task, meta), env_dir / "fs")

    def snapshot_dir(self, fs: Path, spec: SandboxSpec, state: ShellState) -> Snapshot:
        snap_id = new_id("snap")
        d = self.root / "snapshots" / snap_id
        write_owner_file(d, "snapshot", task=spec.task_id)
        try:
            _copy_tree(fs, d / "fs")
        except BaseException:
            remove_tree(d)
            raise
        snap_spec = spec.from_snapshot(state)
        return Snapshot(self, snap_id, snap_spec, d)

    def fork(self, snapshot: Snapshot, n: int) -> list[LocalSandbox]:
        out: list[LocalSandbox] = []
        try:
            for _ in range(n):
                out.append(LocalSandbox(self, snapshot.spec, snapshot.ref / "fs"))
        except BaseException:
            for s in out:
                s.close()
            raise
        return out

    def delete_snapshot(self, snapshot: Snapshot) -> None:
        remove_tree(snapshot.ref)

    def export_snapshot(self, snapshot: Snapshot, dest_dir: Path) -> str:
        subprocess.run(["tar", "-C", str(snapshot.ref), "-cf", str(Path(dest_dir) / "fs.tar"), "fs"], check=True)
        return "fs.tar"

    def _import_snapshot(self, path: Path, spec: SandboxSpec) -> Snapshot:
        snap_id = new_id("snap")
        d = self.root / "snapshots" / snap_id
        write_owner_file(d, "snapshot", task=spec.task_id)
        try:
            subprocess.run(["tar", "-C", str(d), "-xf", str(path)], check=True)
        except BaseException:
            remove_tree(d)
            raise
        return Snapshot(self, snap_id, spec, d)


def _dockerignore_filter(ctx: Path):
    patterns: list[str] = []
    ignore = ctx / ".dockerignore"
    if ignore.is_file():
        patterns = [l.strip() for l in ignore.read_text().splitlines() if l.strip() and not l.startswith("#")]

    def filt(info: tarfile.TarInfo):
        if any(fnmatch.fnmatch(info.name, p) for p in patterns):
            return None
        return info

    return filt


def list_state_dirs(root: Path | None = None) -> list[tuple[Path, dict | None]]:
    root = Path(root) if root else state_root()
    out = []
    for sub in ("sandboxes", "snapshots", "envs"):
        base = root / sub
        if not base.is_dir():
            continue
        for d in base.iterdir():
            if sub == "envs" and not d.name.startswith(".build-"):
                continue  # built environments are a cache, not a leak
            out.append((d, read_owner_file(d)))
    return out
