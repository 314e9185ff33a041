"""Who owns a sandbox resource, where local state lives, and how `gc` tells live owners from dead ones.

Every container, snapshot image, state dir and cgroup ReTerm creates carries the owner's identity
(`host:pid:start_time`). A resource whose owner process no longer exists on this host was left behind by a run
that was killed, and `reterm sandbox gc` removes it. The process start time guards against pid reuse.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import socket
import stat
import subprocess
import uuid
from functools import lru_cache
from pathlib import Path

LABEL_MANAGED = "reterm.managed"
LABEL_KIND = "reterm.kind"  # sandbox | snapshot | task-image | base-image
LABEL_OWNER = "reterm.owner"
LABEL_TASK = "reterm.task"


def state_root() -> Path:
    """Root of ReTerm's local state (sandboxes, snapshots, built environments, model caches)."""
    root = os.environ.get("RETERM_HOME") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "reterm"
    )
    return Path(root)


# Local sandboxes' and snapshots' trees go to a tmpfs where one has room: they are small (a task's files, ~45 entries)
# and short-lived, and on ext4 without a journal every new inode is checked against those deleted in the last seconds
# (`recently_deleted`), which under a trial's churn cost as much kernel CPU as the trials themselves.
SHM = Path("/dev/shm")
SCRATCH_MIN_FREE = 2 << 30  # bytes the tmpfs must have free to be used
SCRATCH_MAX_TREE = 256 << 20  # bytes: a tree larger than this (an environment, a snapshot) goes to the state root


def _is_tmpfs(path: Path, mounts: str | None = None) -> bool:
    """Whether `path` is a tmpfs mount that lets programs run (a sandbox runs what it compiles there), by the
    mount table `mounts` (/proc/self/mounts when None); the last mount on a path is the one seen."""
    if mounts is None:
        try:
            with open("/proc/self/mounts") as f:
                mounts = f.read()
        except OSError:
            return False
    mine = [m for m in (line.split() for line in mounts.splitlines()) if len(m) > 3 and m[1] == str(path)]
    return bool(mine) and mine[-1][2] == "tmpfs" and "noexec" not in mine[-1][3].split(",")


def shm_base() -> Path:
    """This user's folder of /dev/shm, which holds one scratch folder per state root."""
    return SHM / f"reterm-{os.getuid()}"


def shm_folder(root: Path) -> Path:
    """The folder of /dev/shm that would hold the trees of state root `root` (one per user and state root)."""
    digest = hashlib.sha256(str(Path(root).resolve()).encode()).hexdigest()[:12]
    return shm_base() / digest


def scratch_root(root: Path | None = None) -> Path:
    """Where the local backend makes its sandboxes' and snapshots' trees (built environments and models stay under
    the state root `root`): `RETERM_SCRATCH` when set; else `shm_folder(root)` when /dev/shm is a tmpfs that runs
    programs, has SCRATCH_MIN_FREE bytes free, and this user's folder there is private and their own; else the state
    root itself. Where to look for trees already made: `scratch_dirs`."""
    root = Path(root) if root else state_root()
    if os.environ.get("RETERM_SCRATCH"):
        return Path(os.environ["RETERM_SCRATCH"])
    if _shm_usable():
        return shm_folder(root)
    return root


def scratch_dirs(root: Path | None = None) -> list[Path]:
    """Every folder that may hold trees of state root `root`, resolved and without repeats: the root, its scratch
    root, and its folder of /dev/shm where one exists (however full /dev/shm is now)."""
    root = Path(root) if root else state_root()
    out: list[Path] = []
    for d in (root, scratch_root(root), shm_folder(root)):
        try:
            d = d.resolve()
        except OSError:
            continue
        if d not in out and (d == root.resolve() or d.is_dir()):
            out.append(d)
    return out


@lru_cache(maxsize=1)
def _shm_usable() -> bool:
    if not _is_tmpfs(SHM) or not os.access(SHM, os.W_OK | os.X_OK):
        return False
    st = os.statvfs(SHM)
    if st.f_bavail * st.f_frsize < SCRATCH_MIN_FREE:
        return False
    mine = shm_base()
    try:
        mine.mkdir(mode=0o700, exist_ok=True)
        info = os.lstat(mine)
        # someone else's folder or a link: the trees stay under the state root; our own is made private
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid():
            return False
        if info.st_mode & 0o077:
            os.chmod(mine, 0o700)
    except OSError:
        return False
    return True


def scratch_has_room(scratch: Path, nbytes: int) -> bool:
    """Whether a tree of `nbytes` may go to `scratch` (a tmpfs folder): at most SCRATCH_MAX_TREE, and SCRATCH_MIN_FREE
    / 2 left free after it."""
    if nbytes > SCRATCH_MAX_TREE:
        return False
    try:
        st = os.statvfs(scratch)
    except OSError:
        return False
    return st.f_bavail * st.f_frsize - nbytes >= SCRATCH_MIN_FREE // 2


def tree_bytes(tree: Path) -> int:
    """The bytes of the files under `tree` (links not followed; what cannot be read counts 0)."""
    total = 0
    for dirpath, _dirs, files in os.walk(tree):
        for name in files:
            try:
                total += os.lstat(os.path.join(dirpath, name)).st_size
            except OSError:
                pass
    return total


def link_or_copy(src: str, dst: str) -> None:
    """A hard link where the file system allows one (the bytes are not written twice), else a copy (`shutil.copytree`'s
    `copy_function`)."""
    try:
        os.link(src, dst)
    except OSError:
        shutil.copy2(src, dst)


def make_scratch(root: Path) -> Path:
    """`scratch_root(root)` with its sandboxes/ and snapshots/ made; a scratch folder of its own records the state
    root it serves (`home`), so `gc` can remove one whose state root is gone."""
    scratch = scratch_root(root)
    for sub in ("sandboxes", "snapshots"):
        (scratch / sub).mkdir(parents=True, exist_ok=True)
    if scratch.resolve() != Path(root).resolve() and not (scratch / "home").exists():
        (scratch / "home").write_text(str(Path(root).resolve()))
    return scratch


def remove_tree(path: Path) -> None:
    """Deletes a sandbox's or snapshot's state dir, also what the sandbox made read-only inside it."""
    shutil.rmtree(path, ignore_errors=True)
    if path.exists():  # files the sandbox made read-only, or a dir it chmod'ed
        subprocess.run(["chmod", "-R", "u+rwX", str(path)], capture_output=True)
        shutil.rmtree(path, ignore_errors=True)


def _proc_start_time(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # Field 22 (starttime); the command name (field 2) may hold spaces, so split after its closing paren.
    return stat.rsplit(b")", 1)[1].split()[19].decode()


@lru_cache(maxsize=1)
def _owner_for(pid: int) -> str:
    return f"{socket.gethostname()}:{pid}:{_proc_start_time(pid)}"


def owner_id() -> str:
    return _owner_for(os.getpid())


def owner_alive(owner: str) -> bool | None:
    """True/False for an owner on this host; None when the owner is on another host (can't tell)."""
    try:
        host, pid, start = owner.rsplit(":", 2)
    except ValueError:
        return False
    if host != socket.gethostname():
        return None
    return _proc_start_time(int(pid)) == start


def new_id(prefix: str) -> str:
    return f"{prefix}-{uuid.uuid4().hex[:12]}"


def labels(kind: str, task_id: str | None = None) -> dict[str, str]:
    out = {LABEL_MANAGED: "1", LABEL_KIND: kind, LABEL_OWNER: owner_id()}
    if task_id:
        out[LABEL_TASK] = task_id
    return out


def write_owner_file(directory: Path, kind: str, **extra) -> None:
    """Marks a local state dir with its owner, written before anything else goes in, so gc can always judge it."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "owner.json").write_text(json.dumps({"kind": kind, "owner": owner_id(), **extra}))


def read_owner_file(directory: Path) -> dict | None:
    try:
        return json.loads((directory / "owner.json").read_text())
    except (OSError, ValueError):
        return None
