"""Docker forks without container start: warm containers brought to a snapshot's state.

Starting a container is most of what a Docker fork costs (~0.25 s each, ~1.1 s for 8 on 2 cores), and replaying the
prefix pays it too. So each engine keeps a few started, idle containers per task image and limits (a *warm pool*,
filled in the background after the first snapshot of such a sandbox), and a fork takes one and brings it to the
snapshot's state:

- At snapshot time, one command in the source sandbox's own shell lists every path of its root filesystem and tars
  the ones whose ctime is newer than the container's creation (created, written, chmod-ed or renamed since the image),
  directories without their contents. Deletions are the paths of the image (listed once per pool, in a fresh warm
  container) that are no longer there. Mount points (`/proc`, `/etc/hosts`, ...) are on other devices and left out.
- A fork removes the deleted paths in a warm container and extracts the tar there (owners, modes and mtimes kept),
  both in one command of its shell with the tar streamed on its stdin (`PersistentShell.feed`; about half the CPU
  of the engine's `put_archive`, which starts a helper process per upload), and takes the snapshot's shell state.
  No container starts.

This needs GNU find, tar and base64 in the image; where the capture fails (busybox images) or its output is not
base64, or the deleted paths do not fit one command line, or the sandbox itself runs on a snapshot image (a fork made
the cold way), the snapshot has no diff and its forks start containers from the committed image as before. The
committed image is always made too: it is what moves between engines and what `export_snapshot` saves.
"""

from __future__ import annotations

import atexit
import base64
import shlex
import threading
from dataclasses import dataclass, field

from reterm.sandbox.shell import SandboxError

WARM_SIZE = 8
MAX_POOLS_PER_ENGINE = 4  # the least recently used pool of an engine is emptied beyond this
_MAX_DELETE_ARG = 96 * 1024
_LIST = "find / -xdev -printf '%D %P\\0'"


@dataclass
class FsDiff:
    """A snapshot's filesystem relative to its image: a tar of what changed, and the paths that were deleted."""

    tar: bytes
    deleted: list[bytes]


def _root_paths(listing: bytes) -> set[bytes]:
    """Paths on the root filesystem's device from a `%D %P\\0` listing whose first entry is `/` itself."""
    entries = listing.split(b"\0")
    dev = entries[0].split(b" ", 1)[0]
    out = set()
    for e in entries[1:]:
        d, _, p = e.partition(b" ")
        if d == dev and p:
            out.add(p)
    return out


def _capture_script(since: float) -> str:
    changed = (
        f"__d=$(stat -c %d /); find / -xdev -newerct @{since:.9f} -printf '%D %P\\0' | "
        "while IFS= read -r -d '' __e; do [ \"${__e%% *}\" = \"$__d\" ] && [ -n \"${__e#* }\" ] && "
        "printf '%s\\0' \"${__e#* }\"; done | tar -C / --null --no-recursion --numeric-owner -cf - -T - 2>/dev/null"
    )
    return f"set -o pipefail; {_LIST} | base64 -w0 && echo && {{ {changed}; [ $? -le 1 ]; }} | base64 -w0"


def _b64(text: str) -> bytes | None:
    """The bytes of one base64 line from a sandbox's shell, or None where it is not one (output of a background
    process interleaved with it, a `base64` of the image's own that prints more)."""
    try:
        return base64.b64decode(text.strip(), validate=True)
    except ValueError:
        return None


def list_image(sandbox) -> frozenset[bytes]:
    """The paths of a fresh container's root filesystem (what its image holds)."""
    res = sandbox.shell.exec(f"set -o pipefail; {_LIST} | base64 -w0", timeout=120, output_cap=1 << 30,
                             state=sandbox.spec.initial_state)
    if res.exit_code != 0:
        raise SandboxError(f"cannot list the image's files in {sandbox.id}: {res.output[-300:]}")
    listing = _b64(res.output)
    if listing is None:
        raise SandboxError(f"cannot list the image's files in {sandbox.id}: the listing is not base64 "
                           f"({res.output.strip()[-120:]!r})")
    return frozenset(_root_paths(listing))


def capture_diff(sandbox, manifest: frozenset[bytes], limit: int = 1 << 30) -> FsDiff | None:
    """The sandbox's filesystem diff from its image, or None where it cannot be taken this way."""
    res = sandbox.shell.exec(_capture_script(sandbox.created), timeout=300, output_cap=limit,
                             state=sandbox.spec.initial_state)
    if res.exit_code != 0 or res.truncated or "\n" not in res.output:
        return None
    listing_b64, tar_b64 = res.output.strip("\n").split("\n", 1)
    listing, tar = _b64(listing_b64), _b64(tar_b64)
    if listing is None or tar is None:
        return None  # the output is not what the script prints: the forks start from the committed image
    present = _root_paths(listing)
    gone = sorted(manifest - present)
    deleted, last = [], None
    for p in gone:  # only the top of each deleted tree: rm -rf takes the rest
        if last is not None and p.startswith(last + b"/"):
            continue
        deleted.append(p)
        last = p
    if sum(len(p) + 3 for p in deleted) > _MAX_DELETE_ARG:
        return None  # more deletions than one `rm` takes
    return FsDiff(tar, deleted)


def apply_diff(sandbox, diff: FsDiff) -> None:
    """Brings a warm container (a fresh one of the same image) to the diff's state, in one round trip through its
    shell: deletions first (a path may come back as another type), then the tar."""
    rm = " ".join(shlex.quote("/" + p.decode("utf-8", "surrogateescape")) for p in diff.deleted)
    res = sandbox.shell.feed((f"rm -rf -- {rm}; " if rm else "") + "tar -C / -xpf - --numeric-owner", diff.tar,
                             timeout=300)
    if res.exit_code != 0:
        raise SandboxError(f"cannot bring warm sandbox {sandbox.id} to the snapshot's state: {res.output[-300:]}")


@dataclass
class WarmPool:
    """Started, idle containers of one image with one set of limits on one engine."""

    engine: object
    key: tuple
    spec: object  # the SandboxSpec warm containers are created with
    image: str
    ready: list = field(default_factory=list)
    manifest: frozenset | None = None
    filling: threading.Thread | None = None


class WarmPools:
    """The warm pools of one docker backend, filled by background threads. `start_container(engine, spec, image)`
    starts one container of the backend's sandbox type (the backend passes it: this module stays below the backend
    that uses it)."""

    def __init__(self, start_container, size: int = WARM_SIZE):
        self.start_container = start_container
        self.size = size
        self._pools: dict[tuple, WarmPool] = {}  # insertion order = least recently used first
        self._lock = threading.Lock()
        self._closed = False
        atexit.register(self.close)  # runs before the sandbox sweep: no fill may start a container after it

    @staticmethod
    def key_of(engine, image: str, spec) -> tuple:
        return (engine.url, image, spec.workdir, spec.cpus, spec.memory_mb, spec.pids, spec.network)

    def pool_for(self, sandbox) -> WarmPool | None:
        """The pool a snapshot of `sandbox` forks from (created and filled in the background on first use)."""
        if self.size <= 0 or sandbox.base_image is None or self._closed:
            return None
        key = self.key_of(sandbox.engine, sandbox.base_image, sandbox.spec)
        evicted = []
        with self._lock:
            pool = self._pools.pop(key, None)
            if pool is None:
                spec = sandbox.spec.from_snapshot(sandbox.spec.initial_state)
                pool = WarmPool(sandbox.engine, key, spec, sandbox.base_image)
            self._pools[key] = pool
            mine = [k for k, p in self._pools.items() if p.engine is sandbox.engine]
            for k in mine[: max(0, len(mine) - MAX_POOLS_PER_ENGINE)]:
                evicted.append(self._pools.pop(k))
        for p in evicted:
            self._empty(p)
        self._refill(pool)
        return pool

    def _refill(self, pool: WarmPool) -> None:
        with self._lock:
            if self._closed or (pool.filling is not None and pool.filling.is_alive()):
                return
            if len(pool.ready) >= self.size and pool.manifest is not None:
                return
            pool.filling = threading.Thread(target=self._fill, args=(pool,), daemon=True, name="reterm-warm")
            pool.filling.start()

    def _fill(self, pool: WarmPool) -> None:
        try:
            while not self._closed and pool.engine.up:
                with self._lock:
                    if len(pool.ready) >= self.size or self._pools.get(pool.key) is not pool:
                        break
                sb = self.start_container(pool.engine, pool.spec, pool.image)
                try:
                    if pool.manifest is None:
                        pool.manifest = list_image(sb)
                    with self._lock:
                        keep = not self._closed and self._pools.get(pool.key) is pool
                        if keep:
                            pool.ready.append(sb)
                except BaseException:
                    sb.close()
                    raise
                if not keep:
                    sb.close()
        except Exception:  # an engine that went down or is out of room: the pool refills when it is used again
            pass

    def take(self, engine, snapshot, n: int) -> list:
        """Up to `n` warm containers for forks of `snapshot` on `engine`; `refill` once the forks are made."""
        with self._lock:
            pool = self._pools.get(self.key_of(engine, snapshot.base_image, snapshot.spec))
            if pool is None:
                return []
            taken, pool.ready = pool.ready[:n], pool.ready[n:]
        return taken

    def refill(self, engine, snapshot) -> None:
        """Starts refilling the pool forks of `snapshot` on `engine` took from: after the forks are made, so that
        starting containers does not compete with them for the CPU."""
        with self._lock:
            pool = self._pools.get(self.key_of(engine, snapshot.base_image, snapshot.spec))
        if pool is not None:
            self._refill(pool)

    def ready_ids(self) -> set[str]:
        """Container ids of the warm containers waiting for a fork."""
        with self._lock:
            return {sb.container.id for p in self._pools.values() for sb in p.ready}

    def wait(self, timeout: float = 120.0) -> None:
        """Until every pool is full (benchmarks: so that background fills do not overlap what they time)."""
        with self._lock:
            threads = [p.filling for p in self._pools.values() if p.filling is not None]
        for t in threads:
            t.join(timeout)

    def _empty(self, pool: WarmPool) -> None:
        with self._lock:
            boxes, pool.ready = pool.ready, []
        for sb in boxes:
            sb.close()

    def drop_engine(self, engine) -> None:
        """An engine went down: its warm containers are gone (or owed); forget them."""
        with self._lock:
            pools = [p for p in self._pools.values() if p.engine is engine]
            for p in pools:
                self._pools.pop(p.key, None)
        for p in pools:
            self._empty(p)

    def close(self) -> None:
        with self._lock:
            self._closed = True
            pools, self._pools = list(self._pools.values()), {}
        for p in pools:
            if p.filling is not None:
                p.filling.join(30)
            self._empty(p)
