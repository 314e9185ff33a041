"""Who owns a sandbox resource, where local state lives, and how `gc` tells live owners from dead ones.

Every container, snapshot image, state dir and cgroup ReTerm creates carries the owner's identity
(`host:pid:start_time`). A resource whose owner process no longer exists on this host was left behind by a run
that was killed, and `reterm sandbox gc` removes it. The process start time guards against pid reuse.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
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
