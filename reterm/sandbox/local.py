"""The `local` backend: bubblewrap sandboxes over the host's read-only system dirs.

Filesystem. The sandbox's root is its own state dir (`<scratch>/sandboxes/<id>/fs`), bound writable at `/`, so
a file written anywhere outside the system dirs (`/data`, `/custom-workdir`) is part of the sandbox and of its
snapshots. The host's `/usr`, `/bin`, `/lib*` and `/sbin` are bound read-only over it (their mount points live in
`fs`), and `fs/usr/local` is bound writable over `/usr/local`. `/etc` is the environment's own copy of the host's,
seeded at build time with the entries any user may read (so `/etc/shadow`, private keys and other root-only files
are never copied) and writable while the Dockerfile runs (`RUN useradd ...`); sandboxes share that built copy
read-only, as they share the host's `/usr`, so a snapshot or fork need not copy its ~1,400 entries. An environment
whose Dockerfile cannot change /etc (no `RUN`, nothing copied there: most tasks) does not seed one of its own: it
shares one seed of the host's /etc with every such environment (`envs/.etc-<digest of the host's /etc>`). A
snapshot is a copy of that `fs` dir; a fork is a new sandbox over a copy of the snapshot.

Where. Built environments live under the state root (`RETERM_HOME`); sandboxes and snapshots in its scratch folder
(`resources.scratch_root`: a folder of /dev/shm when that tmpfs has room, else the state root), unless the tree
copied (an environment's files, a sandbox's for its snapshot, an imported snapshot) is larger than
`resources.SCRATCH_MAX_TREE` or would leave the tmpfs short: then under the state root. On a tmpfs, what a sandbox's
own processes write is memory charged to its cgroup.

Environment. The task's Dockerfile is *interpreted*: `FROM` stands for the host system, `WORKDIR`, `ENV`, `ARG`,
`COPY`/`ADD` (local files) and `RUN` (run inside a build sandbox) are applied; `LABEL`, `EXPOSE`, `CMD`,
`ENTRYPOINT`, `HEALTHCHECK`, `STOPSIGNAL` and `MAINTAINER` are ignored (they change neither files nor the shell);
anything else is an error naming the instruction. The result is cached by a hash of the environment dir.

Isolation. New user, pid, network, ipc and uts namespaces; `--die-with-parent`; the host environment is never passed
in (`--clearenv`); capabilities are cut to Docker's default set. When the driver runs as the host's root, the
sandbox's uids 0..65535 are mapped onto the unprivileged host uids SANDBOX_UID.. (`RETERM_SANDBOX_UID`, default
100000): root inside can chown, add users and run tasks that need root, but to the host it is an ordinary user, so a
host file only root may read (a mode-600 file under the bound system dirs) stays unreadable. bubblewrap is started
as that uid and the host writes the uid map (`--userns-block-fd`); the state dir, which may sit under a private
home, is bind-mounted at a fixed traversable path in a private mount namespace first. Where the
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
from reterm.sandbox.base import Backend, Sandbox, SandboxSpec, Snapshot, start_in_parallel
from reterm.sandbox.resources import (make_scratch, new_id, read_owner_file, remove_tree, scratch_dirs,
                                     scratch_has_room, state_root, tree_bytes, write_owner_file)
from reterm.sandbox.shell import DEFAULT_OUTPUT_CAP, PersistentShell, SandboxError, ShellState

log = logging.getLogger(__name__)

LOCAL_BUILD_VERSION = "3"
DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
# Dirs every local sandbox starts with (Docker images have them too); `usr/local` is bound over the read-only /usr.
WRITABLE_DIRS = ("root", "tmp", "home", "opt", "srv", "var/tmp", "run", "mnt", "media", "app", "tests", "logs/agent",
                 "logs/verifier", "logs/artifacts", "solution", "proc", "dev", ".reterm/inbox",
                 *(f"usr/local/{d}" for d in ("bin", "sbin", "lib", "include", "share", "etc", "src", "games")))
SYSTEM_DIRS = ("usr", "bin", "sbin", "lib", "lib32", "lib64", "libx32")
SANDBOX_UID = int(os.environ.get("RETERM_SANDBOX_UID", "100000"))
ID_RANGE = 65536
# Where a root driver bind-mounts a sandbox's state dir (in a private mount namespace) so that bubblewrap, started
# as the unprivileged SANDBOX_UID, can reach it even when RETERM_HOME sits under a home only root may enter.
MOUNT_DIR = Path("/run/reterm/sandbox")
DEFAULT_CAPS = ("CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FOWNER", "CAP_FSETID", "CAP_KILL", "CAP_SETGID",
                "CAP_SETUID", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE", "CAP_SYS_CHROOT", "CAP_MKNOD",
                "CAP_AUDIT_WRITE", "CAP_SETFCAP")
IGNORED_INSTRUCTIONS = {"LABEL", "EXPOSE", "CMD", "ENTRYPOINT", "HEALTHCHECK", "STOPSIGNAL", "MAINTAINER"}
INBOX = "/.reterm/inbox"
ROOT_USERS = ("root", "0", "root:root", "0:0")


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
        # killed processes are mostly gone within a millisecond: poll often at first, then every 20 ms (1 s in all)
        delays = [0.001, 0.002, 0.004, 0.008] + [0.02] * 50
        for delay in delays:
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
            time.sleep(delay)

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


CGROUP_MIN_AGE_S = 120  # gc leaves a cgroup younger than this: a sandbox starting now makes its cgroup first


def remove_stale_cgroups(alive_names: set[str], min_age_s: float = CGROUP_MIN_AGE_S) -> int:
    """Removes the empty ReTerm cgroups whose sandbox dir is gone (used by gc, which removes a dead sandbox's own
    cgroups with its tree); a cgroup that holds a process cannot be removed. One made in the last `min_age_s` seconds
    stays: a sandbox starting beside gc makes its cgroup before its process joins it, possibly after gc listed the live
    sandboxes (a cgroup dir's mtime is when it was made)."""
    removed, now = 0, time.time()
    for base in [Cgroup.ROOT / "reterm"] + [Cgroup.ROOT / c / "reterm" for c in ("pids", "memory", "cpu")]:
        if not base.is_dir():
            continue
        for d in base.iterdir():
            if d.is_dir() and d.name not in alive_names:
                try:
                    if now - d.stat().st_mtime < min_age_s:
                        continue
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


def _privileged() -> bool:
    return os.geteuid() == 0


def _give_to_sandbox(path: Path) -> None:
    """Host-made files in a sandbox's tree belong to the sandbox's root (the mapped SANDBOX_UID)."""
    if _privileged():
        subprocess.run(["chown", "-R", "--no-dereference", f"{SANDBOX_UID}:{SANDBOX_UID}", str(path)], check=True)


def _ensure_layout(fs: Path) -> list[Path]:
    """Creates the mount points and standard dirs a sandbox root needs; returns what it had to create."""
    made: list[Path] = []
    for name in SYSTEM_DIRS:
        host, mine = Path("/") / name, fs / name
        if mine.exists() or mine.is_symlink():
            continue
        if host.is_symlink():
            mine.symlink_to(os.readlink(host))
            made.append(mine)
        elif host.is_dir():
            mine.mkdir()
            made.append(mine)
    for rel in WRITABLE_DIRS:
        d = fs / rel
        if not d.exists():
            d.mkdir(parents=True)
            if fs / rel.split("/")[0] not in made:
                made.append(fs / rel.split("/")[0])
    os.chmod(fs / "tmp", 0o1777)
    os.chmod(fs / "var" / "tmp", 0o1777)
    return made


def _seed_etc(fs: Path) -> None:
    """The sandbox's own /etc: the host's, less every entry that not every user may read (shadow files, private
    keys, ...), which a sandbox must never see."""
    etc = fs / "etc"
    etc.mkdir(exist_ok=True)
    for dirpath, dirnames, filenames in os.walk("/etc"):
        rel = os.path.relpath(dirpath, "/etc")
        keep = []
        for d in dirnames:
            st = os.lstat(os.path.join(dirpath, d))
            if os.path.islink(os.path.join(dirpath, d)):
                filenames.append(d)
            elif st.st_mode & 0o005 == 0o005:
                keep.append(d)
                (etc / rel / d).mkdir(exist_ok=True)
                shutil.copystat(os.path.join(dirpath, d), etc / rel / d)
        dirnames[:] = keep
        for f in filenames:
            src = os.path.join(dirpath, f)
            st = os.lstat(src)
            dst = etc / rel / f
            if os.path.islink(src):
                os.symlink(os.readlink(src), dst)
            elif os.path.isfile(src) and st.st_mode & 0o004:
                shutil.copy2(src, dst)


def _under_etc(path: str) -> bool:
    return path == "/etc" or path.startswith("/etc/")


def leaves_etc_alone(task) -> bool:
    """Whether building `task` cannot change /etc: no `RUN`, and every `WORKDIR` and `COPY`/`ADD` destination, read as
    written, lies outside /etc and is not `/` itself. Anything uncertain (a `$` in a path, an instruction the build
    refuses) counts as changing it, so such a build seeds an /etc of its own."""
    if task.workdir and _under_etc(os.path.normpath(task.workdir)):
        return False
    if task.dockerfile is None:
        return True
    workdir = "/root"
    for ins in dfile.parse(task.dockerfile):
        kw = ins.keyword
        if kw in ("FROM", "ENV", "ARG") or kw in IGNORED_INSTRUCTIONS or (
                kw == "USER" and ins.args.strip() in ROOT_USERS):
            continue
        if kw == "WORKDIR":
            dest = ins.args.strip()
        elif kw in ("COPY", "ADD"):
            try:
                items = ins.json_args() or shlex.split(ins.args)
            except ValueError:
                return False
            if not items:
                return False
            dest = items[-1]
        else:
            return False
        if "$" in dest:
            return False
        path = os.path.normpath(os.path.join(workdir, dest))
        if path == "/" or _under_etc(path):
            return False
        if kw == "WORKDIR":
            workdir = path
    return True


def host_etc_digest() -> str:
    """A digest of the host's /etc as `_seed_etc` reads it (names, modes, sizes, owners, times): a new one whenever
    the host's /etc changes, so a shared seed never goes stale. About 10 ms."""
    h = hashlib.sha256(f"etc-{LOCAL_BUILD_VERSION}\0".encode())
    for dirpath, dirnames, filenames in os.walk("/etc"):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            p = os.path.join(dirpath, name)
            try:
                st = os.lstat(p)
            except OSError:
                continue
            h.update(f"{p}\0{st.st_mode:o}\0{st.st_size}\0{st.st_uid}\0{st.st_mtime_ns}\0".encode())
    return h.hexdigest()[:16]


def _share_etc(env_dir: Path) -> None:
    """After the build: the environment's /etc moves beside its `fs` (shared read-only by its sandboxes); `fs/etc`
    stays as the empty mount point."""
    (env_dir / "fs" / "etc").rename(env_dir / "etc")
    (env_dir / "fs" / "etc").mkdir()
    _give_to_sandbox(env_dir / "fs" / "etc")


class LocalSandbox(Sandbox):
    backend_name = "local"

    def __init__(self, backend: "LocalBackend", spec: SandboxSpec, fs_source: Path | None, copy: bool = True,
                 home: Path | None = None):
        """`home`: the folder whose sandboxes/ holds this one (the backend's scratch unless given; a tree moved in
        with `copy=False` must stay on its own filesystem)."""
        sandbox_id = new_id("sb")
        # what _destroy reads, set before the sandbox is registered (from then on a stop may close it)
        self.dir = (home or backend.scratch) / "sandboxes" / sandbox_id
        self.cgroup: Cgroup | None = None
        self._proc: subprocess.Popen | None = None
        self._start_error: str | None = None
        super().__init__(backend, sandbox_id, spec)
        try:
            write_owner_file(self.dir, "sandbox", task=spec.task_id)
            (self.dir / "inbox").mkdir()
            if fs_source is not None and copy:
                _copy_tree(fs_source, self.dir / "fs")
            elif fs_source is not None:
                fs_source.rename(self.dir / "fs")
            else:
                (self.dir / "fs").mkdir()
            # Snapshots exported by older versions lack some mount points; anything made here goes to the sandbox.
            for made in _ensure_layout(self.fs):
                _give_to_sandbox(made)
            self.cgroup = Cgroup(self.id, spec.pids, spec.memory_mb, spec.cpus)
            self.shell = PersistentShell(self._open_channel, spec.shell_state.copy(), spec.output_cap, spec.user)
        except BaseException as e:
            cut_short = self.closed  # the stop's close took what this start was working on
            self._close_after_start()
            if cut_short and isinstance(e, Exception):
                raise SandboxError(f"sandbox {self.id} was closed while it started (the run is stopping)") from e
            raise
        if self.closed:
            self._close_after_start()
            raise SandboxError(f"sandbox {self.id} was closed while it started (the run is stopping)")

    def _close_after_start(self) -> None:
        """Closes a sandbox whose start failed or was cut short. A stop that closed it while it was being made
        (close_all, from the signal's thread) left what the start went on to make (its folder, its cgroup, its
        shell): closed again, they go too."""
        with self._close_lock:
            self._closed = False
        self.close()

    @property
    def fs(self) -> Path:
        return self.dir / "fs"

    def _bwrap_argv(self, userns_fds: tuple[int, int] | None) -> list[str]:
        """bubblewrap's command line. With `userns_fds` (a root driver), the state dir is reached through MOUNT_DIR
        and the host writes the uid map; otherwise bubblewrap maps the caller's own uid to root."""
        src = MOUNT_DIR if userns_fds else self.dir
        argv = [bwrap_path(), "--bind", str(src / "fs"), "/"]
        etc = self._shared_etc()
        if etc is not None and not userns_fds:  # a root driver mounts it before bubblewrap starts (_open_channel)
            argv += ["--ro-bind", str(etc), "/etc"]
        for name in SYSTEM_DIRS:
            host = Path("/") / name
            if host.is_dir() and not host.is_symlink():
                argv += ["--ro-bind", str(host), str(host)]
        if Path("/usr/local").is_dir():
            argv += ["--bind", str(src / "fs" / "usr" / "local"), "/usr/local"]
        argv += ["--proc", "/proc", "--dev", "/dev", "--ro-bind", str(src / "inbox"), INBOX]
        argv += ["--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--hostname", "sandbox"]
        if userns_fds:
            argv += ["--userns-block-fd", str(userns_fds[0]), "--info-fd", str(userns_fds[1])]
        if not self.spec.network:
            argv += ["--unshare-net"]
        argv += ["--uid", "0", "--gid", "0", "--die-with-parent", "--new-session", "--clearenv",
                 "--setenv", "PATH", DEFAULT_PATH, "--chdir", "/", "--cap-drop", "ALL"]
        for cap in DEFAULT_CAPS:
            argv += ["--cap-add", cap]
        argv += ["bash", "--noprofile", "--norc"]
        return argv

    def _shared_etc(self) -> Path | None:
        """The environment's /etc to bind read-only, unless this sandbox's tree carries an /etc of its own (one
        imported from an exported snapshot)."""
        etc = self.spec.extra.get("etc")
        if etc is None or any((self.fs / "etc").iterdir()):
            return None
        return Path(etc)

    def _open_channel(self) -> _PipeChannel:
        if self._start_error:
            raise SandboxError(self._start_error)
        if self._proc is not None and self._proc.poll() is None:
            self._proc.kill()
            self._proc.wait()
        procs = self.cgroup.procs_files if self.cgroup else []
        # Join the cgroups before exec'ing bwrap so every process of the sandbox is counted from the start.
        wrapper = ["/bin/sh", "-c", 'for f in $0; do echo $$ > "$f" || exit 97; done; exec "$@"', " ".join(procs)]
        fds: tuple[int, ...] = ()
        if _privileged():
            r_block, w_block = os.pipe()
            r_info, w_info = os.pipe()
            fds = (r_block, w_info)
            MOUNT_DIR.mkdir(parents=True, exist_ok=True)
            etc = self._shared_etc()
            # bubblewrap's binds are recursive, so the read-only /etc mounted into fs here comes along with it.
            wrapper += ["unshare", "--mount", "--propagation", "private", "--", "/bin/sh", "-c",
                        'mount --bind "$0" "$1" && { [ -z "$2" ] || { mount --bind "$2" "$1/fs/etc" && '
                        'mount -o remount,bind,ro "$1/fs/etc"; }; } && shift 2 && exec "$@"',
                        str(self.dir), str(MOUNT_DIR), str(etc or ""),
                        "setpriv", f"--reuid={SANDBOX_UID}", f"--regid={SANDBOX_UID}", "--clear-groups", "--"]
        argv = wrapper + self._bwrap_argv(fds or None)

        def spawn():
            return subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=fds,
                                    stderr=subprocess.STDOUT, env={"PATH": DEFAULT_PATH}, start_new_session=True)

        try:
            self._proc = _in_keeper(spawn)
        finally:
            for fd in fds:
                os.close(fd)
        if fds:  # in the background: the first command waits for bubblewrap anyway, and forks start together
            threading.Thread(target=self._map_ids, args=(self._proc, r_info, w_block), daemon=True,
                             name=f"reterm-uidmap-{self.id}").start()
        return _PipeChannel(self._proc)

    def _map_ids(self, proc: subprocess.Popen, r_info: int, w_block: int) -> None:
        """Writes the sandbox's uid/gid map (0.. -> SANDBOX_UID..) once bubblewrap reports its child, then lets it
        go on. Only the host's root may map a range; bubblewrap itself could map just one uid. On failure the
        sandbox is killed, and the next start of its shell raises why."""
        try:
            info = b""
            deadline = time.monotonic() + 60
            while b"}" not in info and time.monotonic() < deadline:
                r, _, _ = select.select([r_info], [], [], max(0.0, deadline - time.monotonic()))
                chunk = os.read(r_info, 4096) if r else b""
                if not chunk:
                    break
                info += chunk
            pid = json.loads(info)["child-pid"]
            for kind in ("uid_map", "gid_map"):
                Path(f"/proc/{pid}/{kind}").write_text(f"0 {SANDBOX_UID} {ID_RANGE}\n")
            os.write(w_block, b"1")
        except (ValueError, KeyError, OSError) as e:
            self._start_error = (f"could not start the bubblewrap sandbox {self.id}: its private mounts or its uid "
                                 f"map could not be set up ({e.__class__.__name__}: {e})")
            proc.kill()
        finally:
            os.close(r_info)
            os.close(w_block)

    # -- files -----------------------------------------------------------------------------------------------
    def put_archive(self, dest_dir: str, tar_bytes: bytes) -> None:
        # The archive goes in through a host-only inbox and is unpacked *inside* the sandbox, so symlinks the agent
        # planted can never redirect a host-side write.
        name = new_id("in") + ".tar"
        fd = os.open(self.dir / "inbox" / name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(tar_bytes)
            res = self.shell.exec(f"mkdir -p {shlex.quote(dest_dir)} && tar -xf {INBOX}/{name} --no-same-owner "
                                  f"-C {shlex.quote(dest_dir)}", timeout=120, state=self.file_op_state())
        finally:
            (self.dir / "inbox" / name).unlink(missing_ok=True)
        if not res.ok:
            raise SandboxError(f"upload to {dest_dir} failed in sandbox {self.id}: {res.output.strip()[-500:]}")

    # -- snapshot / lifecycle --------------------------------------------------------------------------------
    def snapshot(self) -> Snapshot:
        with self.shell.idle() as state:  # no command runs while the filesystem is copied
            home = self.backend.home_for(tree_bytes(self.fs))
            return self.backend.snapshot_dir(self.fs, self.spec, state, home=home)

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
        self.scratch = make_scratch(self.root)
        self._tree_bytes: dict[Path, int] = {}
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

    def _build_once(self, key: str, target: Path, ready, make, owner_task: str) -> None:
        """`target` made once, under the lock for `key`: unless `ready(target)`, `make(tmp)` fills a fresh
        `.build-*` dir (marked with its owner, so gc removes one a killed process left), which then becomes `target`
        (when another process finished one first, that one stays)."""
        with self._locks_lock:
            lock = self._build_locks.setdefault(key, threading.Lock())
        with lock:
            if ready(target):
                return
            tmp = self.root / "envs" / f".build-{new_id('b')}"
            write_owner_file(tmp, "build", task=owner_task)
            try:
                make(tmp)
                try:
                    tmp.rename(target)
                except OSError:  # another process made it first
                    remove_tree(tmp)
            except BaseException:
                remove_tree(tmp)
                raise

    def prepare(self, task) -> Path:
        """The built environment for `task` (cached): a dir with `fs/` and `meta.json`."""
        key = self._env_key(task)
        target = self.root / "envs" / f"{task.id[:40]}-{key}"

        def ready(env: Path) -> bool:
            if not (env / "meta.json").is_file():
                return False
            if self.env_etc(env, json.loads((env / "meta.json").read_text())).is_dir():
                return True
            remove_tree(env)  # the shared /etc it names was removed: build it again
            return False

        def make(tmp: Path) -> None:
            (tmp / "meta.json").write_text(json.dumps(self._build(task, tmp)))

        self._build_once(key, target, ready, make, task.id)
        return target

    def seeded_etc(self) -> Path:
        """The seeded copy of the host's /etc that every environment whose build leaves /etc alone shares (most
        tasks: seeding one takes about 0.3 s and 1,400 files, a third of a small task's whole check). Built once per
        state of the host's /etc, under `envs/.etc-<digest>/etc`."""
        target = self.root / "envs" / f".etc-{host_etc_digest()}"

        def make(tmp: Path) -> None:
            _seed_etc(tmp)
            _give_to_sandbox(tmp / "etc")

        self._build_once(target.name, target, lambda t: (t / "etc").is_dir(), make, "/etc")
        return target / "etc"

    def env_etc(self, env_dir: Path, meta: dict) -> Path:
        """The /etc a built environment's sandboxes bind read-only: the shared seed it names, else its own."""
        return env_dir.parent / meta["etc"] if meta.get("etc") else env_dir / "etc"

    def _build(self, task, out: Path) -> dict:
        env = {"PATH": DEFAULT_PATH, "HOME": "/root", "LANG": "C.UTF-8"}
        workdir = "/root"
        shared = self.seeded_etc() if leaves_etc_alone(task) else None
        fs = out / "fs"
        fs.mkdir(parents=True)
        _ensure_layout(fs)
        if shared is None:
            _seed_etc(fs)
        else:  # the mount point; the build box binds the shared seed read-only, so nothing can write it
            (fs / "etc").mkdir()
        if task.workdir:  # Docker creates a missing working dir; so do we
            (fs / task.workdir.lstrip("/")).mkdir(parents=True, exist_ok=True)
        _give_to_sandbox(fs)

        def done(env: dict, workdir: str) -> dict:
            if shared is None:
                _share_etc(out)
            meta = {"env": env, "workdir": task.workdir or workdir}
            if shared is not None:
                meta["etc"] = os.path.relpath(shared, out.parent)
            return meta

        if task.dockerfile is None:
            return done(env, workdir)
        path = task.dockerfile
        instrs = dfile.parse(path)
        froms = [ins for ins in instrs if ins.keyword == "FROM"]
        if len(froms) > 1:
            raise BuildError(f"{path}:{froms[1].line}: multi-stage builds (a second FROM) need --backend docker")
        network = bool(task.allow_internet and self.allow_internet)
        spec = SandboxSpec(task.id, "/", ShellState("/", dict(env)), task.limits.cpus, task.limits.memory_mb,
                           task.limits.pids, network=network, output_cap=self.output_cap or DEFAULT_OUTPUT_CAP)
        if shared is not None:
            spec.extra["etc"] = str(shared)
        box = LocalSandbox(self, spec, fs, copy=False, home=self.root)  # its tree moves back into `out` after
        deadline = time.monotonic() + task.limits.build_timeout_sec
        try:
            args: dict[str, str] = {}
            for ins in instrs:
                workdir = self._apply(box, task, ins, args, workdir, deadline, network)
            env = dict(box.shell.state.env)
        finally:
            box.close(keep_fs_at=fs)
        return done(env, workdir)

    def _apply(self, box: "LocalSandbox", task, ins, args: dict, workdir: str, deadline: float,
               network: bool) -> str:
        """Applies one Dockerfile instruction to the build sandbox; returns the working dir after it."""
        path, kw = task.dockerfile, ins.keyword
        subst = {**args, **box.shell.state.env}
        if kw == "FROM" or kw in IGNORED_INSTRUCTIONS:
            return workdir
        if kw == "ENV":
            for k, v in dfile.parse_key_values(ins, path):
                box.shell.state.env[k] = dfile.substitute(v, {**args, **box.shell.state.env})
        elif kw == "ARG":
            for k, v in dfile.parse_key_values(ins, path):
                args.setdefault(k, dfile.substitute(v, subst))
        elif kw == "WORKDIR":
            workdir = os.path.join(workdir, dfile.substitute(ins.args.strip(), subst))
            res = box.exec(f"mkdir -p {shlex.quote(workdir)}", timeout=30)
            if not res.ok:
                raise BuildError(f"{path}:{ins.line}: WORKDIR {workdir}: {res.output.strip()[-500:]}")
        elif kw in ("COPY", "ADD"):
            try:
                self._apply_copy(box, task, path, ins, workdir, subst)
            except SandboxError as e:
                raise BuildError(f"{path}:{ins.line}: {kw} failed in the local backend: {e}\n"
                                 f"{dfile.build_failure_hint(str(e), True, task, 'local')}") from None
        elif kw == "RUN":
            cmd = ins.json_args()
            command = shlex.join(cmd) if cmd is not None else ins.args
            res = box.exec(command, timeout=max(1.0, deadline - time.monotonic()),
                           state=ShellState(workdir, {**args, **box.shell.state.env}))
            if not res.ok:
                why = "timed out" if res.timed_out else f"exited {res.exit_code}"
                raise BuildError(f"{path}:{ins.line}: RUN {why} in the local backend. "
                                 f"{dfile.build_failure_hint(res.output, network, task, 'local')}\n"
                                 f"{res.output[-2000:]}")
        elif not (kw == "USER" and ins.args.strip() in ROOT_USERS):
            raise BuildError(f"{path}:{ins.line}: the local backend cannot apply `{kw}` "
                             f"(supported: WORKDIR, ENV, ARG, COPY, ADD, RUN); use --backend docker")
        return workdir

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
        dest_abs = os.path.normpath(os.path.join(workdir, dest))
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
        # As Docker: into the destination dir when it ends in "/", names an existing dir (`COPY f /app`,
        # `COPY f .`), or receives several sources or a directory's contents; else the file is renamed to it.
        into_dir = (dest.endswith("/") or dest in (".", "./") or len(matched) > 1 or any(m.is_dir() for m in matched)
                    or box.exec(f"test -d {shlex.quote(dest_abs)}", timeout=30).ok)
        buf = io.BytesIO()
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
        for flag, tool in (("chown", "chown"), ("chmod", "chmod")):
            if flags.get(flag):
                res = box.exec(f"{tool} -R {shlex.quote(flags[flag])} {shlex.quote(dest_abs)}", timeout=60)
                if not res.ok:
                    raise BuildError(f"{path}:{ins.line}: {ins.keyword} --{flag}: {res.output.strip()[-500:]}")

    # -- sandboxes -------------------------------------------------------------------------------------------
    def spec_for(self, task, meta: dict) -> SandboxSpec:
        cwd = task.workdir or meta["workdir"]
        return SandboxSpec(
            task_id=task.id, workdir=cwd, shell_state=ShellState(cwd, dict(meta["env"])),
            cpus=task.limits.cpus, memory_mb=task.limits.memory_mb, pids=task.limits.pids,
            network=bool(task.allow_internet and self.allow_internet),
            output_cap=self.output_cap or DEFAULT_OUTPUT_CAP, user=task.agent_user,
        )

    def start(self, task, progress=None) -> LocalSandbox:
        env_dir = self.prepare(task)
        meta = json.loads((env_dir / "meta.json").read_text())
        spec = self.spec_for(task, meta)
        spec.extra["etc"] = str(self.env_etc(env_dir, meta))
        fs = env_dir / "fs"
        if fs not in self._tree_bytes:  # a built environment does not change
            self._tree_bytes[fs] = tree_bytes(fs)
        return LocalSandbox(self, spec, fs, home=self.home_for(self._tree_bytes[fs])).on_start()

    def home_for(self, nbytes: int) -> Path:
        """Where a tree of `nbytes` goes: the scratch folder while it has room for it (`resources.scratch_has_room`:
        a tmpfs holds its files in memory), else the state root."""
        if self.scratch == self.root or not scratch_has_room(self.scratch, nbytes):
            return self.root
        return self.scratch

    def snapshot_dir(self, fs: Path, spec: SandboxSpec, state: ShellState, home: Path) -> Snapshot:
        """A copy of the sandbox tree `fs` as a snapshot in `home`/snapshots (`home_for` the tree's size)."""
        snap_id = new_id("snap")
        d = home / "snapshots" / snap_id
        write_owner_file(d, "snapshot", task=spec.task_id)
        try:
            _copy_tree(fs, d / "fs")
        except BaseException:
            remove_tree(d)
            raise
        snap_spec = spec.from_snapshot(state)
        return Snapshot(self, snap_id, snap_spec, d)

    def fork(self, snapshot: Snapshot, n: int) -> list[LocalSandbox]:
        # In parallel: each fork's start mostly waits for its bubblewrap to come up (the uid map is written then).
        home = snapshot.ref.parent.parent
        return start_in_parallel(lambda: LocalSandbox(self, snapshot.spec, snapshot.ref / "fs", home=home), n)

    def delete_snapshot(self, snapshot: Snapshot) -> None:
        remove_tree(snapshot.ref)

    def export_snapshot(self, snapshot: Snapshot, dest_dir: Path) -> str:
        # Numeric owners: the sandbox's files belong to mapped uids (SANDBOX_UID..), which have no names here.
        # The environment's shared /etc goes along as the snapshot's own, so the tarball stands alone.
        etc = snapshot.spec.extra.get("etc")
        shared = ["-C", str(Path(etc).parent), "--transform", r"s,^etc,fs/etc,S", "etc"] if etc and not any(
            (snapshot.ref / "fs" / "etc").iterdir()) else []
        subprocess.run(["tar", "--numeric-owner", "-cf", str(Path(dest_dir) / "fs.tar"), "-C", str(snapshot.ref),
                        "fs", *shared], check=True)
        return "fs.tar"

    def _import_snapshot(self, path: Path, spec: SandboxSpec) -> Snapshot:
        snap_id = new_id("snap")
        home = self.home_for(path.stat().st_size)
        d = home / "snapshots" / snap_id
        write_owner_file(d, "snapshot", task=spec.task_id)
        try:
            subprocess.run(["tar", "--numeric-owner", "-C", str(d), "-xf", str(path)], check=True)
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
    """Every sandbox, snapshot and unfinished build of the state root `root`, in it and in its scratch folder."""
    out = []
    for base in scratch_dirs(Path(root) if root else state_root()):
        for sub in ("sandboxes", "snapshots", "envs"):
            if not (base / sub).is_dir():
                continue
            for d in (base / sub).iterdir():
                if sub == "envs" and not d.name.startswith(".build-"):
                    continue  # built environments are a cache, not a leak
                out.append((d, read_owner_file(d)))
    return out
