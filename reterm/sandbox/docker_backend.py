"""The `docker` backend (python docker SDK): one container per sandbox, `docker commit` for snapshots.

- Task images are built from the task's environment dir, tagged by a hash of it (`reterm-task/<id>:<hash>`), and
  reused. `FROM` lines and `docker_image` go through the image map first; an image that is not present locally is
  an error with the fix in it: ReTerm never pulls.
- Containers run with no network (unless the task allows it *and* the user passed --allow-internet), the task's
  cpu and memory limits, a pids limit, `no-new-privileges`, and labels naming their owner so `gc` can reap them.
- The shell is a `bash` started with `docker exec -i` over a hijacked socket (see `reterm.sandbox.shell`).
- A snapshot is `docker commit` of the container plus the shell state, and (where it can be taken) the filesystem
  diff from the task image. Forks take warm containers and apply that diff (`reterm.sandbox.docker_fork`); without
  one they are new containers from the committed image, and then each holds a reference on the snapshot (Docker
  cannot delete an image a container still uses), so the image goes away when the snapshot and every fork from it
  are released.
- One backend drives a pool of engines (`reterm.sandbox.docker_engines`): sandboxes go to the least-loaded engine,
  forks to the engine holding their snapshot, and a snapshot whose engine is full moves (`docker save | docker
  load`). Images are built on each engine when first needed there; a base image missing on one engine is copied
  from another.
"""

from __future__ import annotations

import fnmatch
import hashlib
import os
import re
import select
import struct
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

from reterm.sandbox import dockerfile as dfile
from reterm.sandbox.base import Backend, Sandbox, SandboxSpec, Snapshot, start_in_parallel
from reterm.sandbox.docker_engines import Engine, EngineDown, EnginePool, EngineSpec, default_hosts
from reterm.sandbox.docker_fork import WARM_SIZE, FsDiff, WarmPools, apply_diff, capture_diff
from reterm.sandbox.images import BASE_TAG
from reterm.sandbox.resources import labels, new_id
from reterm.sandbox.shell import DEFAULT_OUTPUT_CAP, PersistentShell, SandboxError, ShellState

DOCKER_BUILD_VERSION = "1"
# Which backend object made a container or snapshot image: one process may hold several backends (tests, benchmarks)
# and count what one of them left.
LABEL_BACKEND = "reterm.backend"


class ImageNotFound(SandboxError):
    pass


def _slug(s: str) -> str:
    return re.sub(r"[^a-z0-9_.-]+", "-", s.lower()).strip("-.")[:60] or "task"


class _ExecSocketChannel:
    """A docker exec's hijacked socket: writes go to stdin, reads are demultiplexed stdout/stderr frames."""

    def __init__(self, api, exec_id: str):
        self._resp = api.exec_start(exec_id, socket=True)
        self._sock = getattr(self._resp, "_sock", self._resp)
        self._sock.setblocking(True)
        self._raw = bytearray()

    def write(self, data: bytes) -> None:
        self._sock.sendall(data)

    def _payload(self) -> bytes:
        out = bytearray()
        while len(self._raw) >= 8:
            size = struct.unpack(">I", self._raw[4:8])[0]
            if len(self._raw) < 8 + size:
                break
            out += self._raw[8 : 8 + size]
            del self._raw[: 8 + size]
        return bytes(out)

    def read(self, timeout: float) -> bytes | None:
        deadline = time.monotonic() + timeout
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return None
            # A TLS socket may hold decrypted bytes that select() cannot see (tcp:// engines): read those first.
            pending = self._sock.pending() if hasattr(self._sock, "pending") else 0
            if not pending:
                r, _, _ = select.select([self._sock], [], [], remaining)
                if not r:
                    return None
            try:
                chunk = self._sock.recv(1 << 16)
            except OSError:  # reset: the engine died with our bytes unread (a unix socket says so, not EOF)
                return b""
            if not chunk:
                return b""
            self._raw += chunk
            data = self._payload()
            if data:
                return data

    def shutdown(self) -> None:
        """Ends the stream from another thread: a read waiting on it returns b"" (the engine went down)."""
        try:
            self._sock.shutdown(2)
        except OSError:
            pass

    def close(self) -> None:
        try:
            self._sock.shutdown(2)
        except OSError:
            pass
        try:
            self._sock.close()
            self._resp.close()
        except Exception:
            pass


def _created_epoch(stamp: str) -> float:
    """Docker's `Created` (RFC 3339, nanoseconds) as seconds since the epoch, a little early rather than late."""
    head, _, frac = stamp.rstrip("Z").partition(".")
    frac = frac.split("+")[0].split("-")[0]
    return datetime.fromisoformat(head + "+00:00").timestamp() + float("0." + (frac or "0")[:6]) - 1e-6


class DockerSandbox(Sandbox):
    backend_name = "docker"

    def __init__(self, backend: "DockerBackend", engine: Engine, spec: SandboxSpec, image: str,
                 parent: Snapshot | None = None, base_image: str | None = None, slot: bool = False):
        """`base_image`: the task image when the container runs on it (not on a snapshot image), which is what
        makes its filesystem diff meaningful; `slot`: the sandbox holds one of the engine's placement slots."""
        super().__init__(backend, new_id("sb"), spec)
        self.engine = engine
        self.image = image
        self.base_image = base_image
        self.container = None
        self.created = 0.0
        self._parent = parent
        self._slot = slot
        self._channel: _ExecSocketChannel | None = None
        engine.sandboxes.add(self)
        try:
            with engine.guard("starting a container"):
                self.container = backend.create_container(engine, image, spec, self.id)
                self.created = _created_epoch(self.container.attrs["Created"])
                self.shell = PersistentShell(self._open_channel, spec.shell_state.copy(), spec.output_cap,
                                             spec.user)
        except BaseException:
            self.close()
            raise

    def _open_channel(self) -> _ExecSocketChannel:
        with self.engine.guard(f"opening the shell of sandbox {self.id}"):
            api = self.engine.client.api
            exec_id = api.exec_create(self.container.id, ["bash", "--noprofile", "--norc"], stdin=True,
                                      stdout=True, stderr=True, tty=False, workdir="/")["Id"]
            self._channel = _ExecSocketChannel(api, exec_id)
        return self._channel

    def exec(self, command: str, timeout: float | None = None, state: ShellState | None = None):
        if not self.engine.up:
            raise EngineDown(f"sandbox {self.id}: docker engine {self.engine.url} is not answering "
                             f"({self.engine.down_reason})")
        return super().exec(command, timeout, state)

    def cut(self) -> None:
        """The engine went down: end the shell's stream so a command waiting on it returns (with EngineDown)."""
        if self._channel is not None:
            self._channel.shutdown()

    def put_archive(self, dest_dir: str, tar_bytes: bytes) -> None:
        import docker

        with self.engine.guard(f"uploading to sandbox {self.id}"):
            try:
                ok = self.container.put_archive(dest_dir, tar_bytes)
            except docker.errors.NotFound:  # the directory is missing: make it (one exec more), then upload
                res = self.container.exec_run(["mkdir", "-p", dest_dir])
                if res.exit_code != 0:
                    raise SandboxError(f"cannot create {dest_dir} in sandbox {self.id}: "
                                       f"{res.output.decode()[-300:]}") from None
                ok = self.container.put_archive(dest_dir, tar_bytes)
            if not ok:
                raise SandboxError(f"upload to {dest_dir} failed in sandbox {self.id}")

    def snapshot(self) -> Snapshot:
        with self.shell.idle() as state:
            return self.backend.commit(self, state)

    def adopt(self, snapshot: "DockerSnapshot") -> None:
        """Turns this warm container into a fork of `snapshot` (same image, same limits)."""
        apply_diff(self, snapshot.diff)
        self.spec = snapshot.spec
        self.shell.state = snapshot.spec.shell_state.copy()
        self._slot = True

    def _destroy(self) -> None:
        try:
            # by name when the creation failed half-way (created, then the engine dropped before it answered)
            self.engine.remove("container", self.container.id if self.container else f"reterm-{self.id}")
        finally:
            self.engine.sandboxes.discard(self)
            if self._slot:
                self._slot = False
                self.backend.pool.release(self.engine)
            if self._parent is not None:
                self._parent.release()
                self._parent = None


class DockerSnapshot(Snapshot):
    """A committed image on its home engine (plus copies moved to others), and the diff warm forks apply."""

    def __init__(self, backend, snap_id: str, spec: SandboxSpec, engine: Engine, image_id: str,
                 diff: FsDiff | None = None, base_image: str | None = None):
        super().__init__(backend, snap_id, spec, image_id)
        self.engine = engine
        self.copies: dict[Engine, str] = {engine: image_id}
        self.diff = diff
        self.base_image = base_image
        self.copy_lock = threading.Lock()


class DockerBackend(Backend):
    name = "docker"

    def __init__(self, image_map: dict[str, str] | None = None, allow_internet: bool = False,
                 output_cap: int | None = None, client=None, hosts: str | list[EngineSpec] | None = None,
                 warm: int = WARM_SIZE):
        """`hosts`: the engine pool (`URL[=CAPACITY],...`, or specs); default $RETERM_DOCKER_HOSTS, else the one
        engine $DOCKER_HOST names. `warm`: started containers kept per task image for forks (0: none)."""
        self.id = new_id("be")
        self.pool = EnginePool(default_hosts(hosts), client)
        self.image_map = dict(image_map or {})
        self.allow_internet = allow_internet
        self.output_cap = output_cap
        self.warm = WarmPools(lambda engine, spec, image: DockerSandbox(self, engine, spec, image, base_image=image),
                              warm)
        for engine in self.pool.engines:
            engine.on_down.append(self.warm.drop_engine)

    @property
    def engines(self) -> list[Engine]:
        return self.pool.engines

    @property
    def client(self):
        """The first engine's client (the only one in a one-engine pool)."""
        return self.pool.engines[0].client

    # -- images ----------------------------------------------------------------------------------------------
    def _require(self, engine: Engine, image: str, where: str) -> None:
        """`image` on `engine`, copied from another engine of the pool if only that one has it."""
        if engine.has_image(image):
            return
        for other in self.pool.up():
            if other is not engine and other.has_image(image):
                with engine.build_lock:
                    if not engine.has_image(image):
                        self.transfer(other, engine, image)
                return
        hint = f"--image-map {image}={BASE_TAG}"
        raise ImageNotFound(
            f"{where}: image {image!r} is not present on {engine.url} and ReTerm never pulls. Build or load it, "
            f"or map it onto a local image, e.g. `{hint}` (build that one with `reterm images build-base`)"
        )

    def transfer(self, src: Engine, dst: Engine, image: str) -> None:
        """`docker save` on one engine streamed into `docker load` on another."""
        with src.guard(f"saving {image}"), dst.guard(f"loading {image}"):
            stream = src.slow.api.get_image(image)
            dst.slow.api.load_image(stream)

    def image_for(self, task, engine: Engine | None = None) -> str:
        engine = engine or self.pool.engines[0]
        if task.dockerfile is None:
            image = dfile.map_image(task.docker_image, self.image_map)
            self._require(engine, image, f"{task.path / 'task.toml'} [environment] docker_image")
            return image
        text = task.dockerfile.read_text()
        rewritten, bases = dfile.rewrite_from(text, self.image_map)
        bases = [b for b in bases if b.lower() != "scratch"]
        for base in bases:
            self._require(engine, base, f"{task.dockerfile} FROM")
        ctx = task.environment_dir
        ignore = ctx / ".dockerignore"
        exclude = [l.strip() for l in ignore.read_text().splitlines()
                   if l.strip() and not l.startswith("#")] if ignore.is_file() else []
        h = hashlib.sha256(f"docker-{DOCKER_BUILD_VERSION}\0{rewritten}\0".encode())
        with engine.guard("reading base image ids"):
            for base in bases:
                h.update(engine.client.images.get(base).id.encode())
        for dirpath, dirnames, filenames in os.walk(ctx):
            dirnames.sort()
            for name in sorted(filenames):
                p = Path(dirpath) / name
                rel = p.relative_to(ctx).as_posix()
                if any(fnmatch.fnmatch(rel, pat) for pat in exclude):
                    continue
                h.update(f"{rel}\0{p.lstat().st_mode:o}\0".encode())
                h.update(os.readlink(p).encode() if p.is_symlink() else p.read_bytes())
        tag = f"reterm-task/{_slug(task.id)}:{h.hexdigest()[:16]}"
        with engine.build_lock:
            if not engine.has_image(tag):
                self._build(engine, task, ctx, rewritten, exclude, tag)
        return tag

    def _build(self, engine: Engine, task, ctx: Path, dockerfile_text: str, exclude: list[str], tag: str) -> None:
        from docker.utils.build import tar

        name = ".reterm.Dockerfile"
        context = tar(str(ctx), exclude=exclude, dockerfile=(name, dockerfile_text))
        log: list[str] = []
        network = None if (task.allow_internet and self.allow_internet) else "none"
        try:
            with engine.guard(f"building {tag}"):
                for chunk in engine.slow.api.build(
                    fileobj=context, custom_context=True, dockerfile=name, tag=tag, rm=True, forcerm=True,
                    pull=False, decode=True, labels=labels("task-image", task.id), network_mode=network,
                    timeout=int(task.limits.build_timeout_sec) + 60,
                ):
                    if "stream" in chunk:
                        log.append(chunk["stream"])
                    if "error" in chunk:
                        output = "".join(log)[-2000:]
                        hint = dfile.build_failure_hint(output + chunk["error"], network is None, task, "docker")
                        raise SandboxError(f"{task.dockerfile}: docker build failed: {chunk['error'].strip()}. "
                                           f"{hint}\n" + output)
        finally:
            context.close()

    # -- containers ------------------------------------------------------------------------------------------
    def create_container(self, engine: Engine, image: str, spec: SandboxSpec, sandbox_id: str):
        lab = {**labels("sandbox", spec.task_id), LABEL_BACKEND: self.id, "reterm.sandbox": sandbox_id}
        return engine.client.containers.run(
            image, entrypoint=["sleep", "infinity"], command=[], detach=True, init=True, labels=lab,
            hostname="sandbox", network_mode=None if spec.network else "none",
            nano_cpus=int(spec.cpus * 1e9), mem_limit=f"{spec.memory_mb}m", pids_limit=spec.pids,
            security_opt=["no-new-privileges"], working_dir=spec.workdir or "/", name=f"reterm-{sandbox_id}",
        )

    def spec_for(self, task, image: str, engine: Engine | None = None) -> SandboxSpec:
        engine = engine or self.pool.engines[0]
        with engine.guard(f"inspecting {image}"):
            cfg = engine.client.images.get(image).attrs.get("Config") or {}
        env = dict(e.split("=", 1) for e in (cfg.get("Env") or []) if "=" in e)
        env.setdefault("PATH", "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
        env.setdefault("HOME", "/root")
        cwd = task.workdir or cfg.get("WorkingDir") or "/"
        return SandboxSpec(
            task_id=task.id, workdir=cwd, shell_state=ShellState(cwd, env), cpus=task.limits.cpus,
            memory_mb=task.limits.memory_mb, pids=task.limits.pids,
            network=bool(task.allow_internet and self.allow_internet),
            output_cap=self.output_cap or DEFAULT_OUTPUT_CAP, user=task.agent_user,
        )

    def prepare(self, task) -> str:
        """Builds the task's image on the engine its next sandbox will most likely go to."""
        return self.image_for(task, self.pool.least_loaded())

    def start(self, task, progress=None) -> DockerSandbox:
        engine = self.pool.reserve()
        try:
            image = self.image_for(task, engine)
            spec = self.spec_for(task, image, engine)
        except BaseException:
            self.pool.release(engine)
            raise
        return DockerSandbox(self, engine, spec, image, base_image=image, slot=True).on_start()

    def prewarm(self, task) -> None:
        """Fills the task's warm pool on every engine now, instead of after its first snapshot (benchmarks)."""
        for engine in self.pool.up():
            image = self.image_for(task, engine)
            sb = DockerSandbox(self, engine, self.spec_for(task, image, engine), image, base_image=image)
            try:
                self.warm.pool_for(sb)
            finally:
                sb.close()
        self.warm.wait()

    # -- snapshots and forks ---------------------------------------------------------------------------------
    def _commit_image(self, sandbox: DockerSandbox, snap_id: str) -> str:
        lab = {**labels("snapshot", sandbox.spec.task_id), LABEL_BACKEND: self.id}
        changes = [f"LABEL {k}={v}" for k, v in lab.items()]
        # pause=False: freezing the container while a `docker exec` is still initialising can deadlock runc (seen
        # here with runc 1.1.5: the container stays Paused forever). The shell is idle during a snapshot anyway (we
        # hold its lock); only background processes could be writing, and they are not part of a snapshot.
        with sandbox.engine.guard(f"committing sandbox {sandbox.id}"):
            return sandbox.engine.slow.api.commit(sandbox.container.id, repository="reterm-snapshot", tag=snap_id,
                                                  changes=changes, pause=False)["Id"]

    def commit(self, sandbox: DockerSandbox, state: ShellState) -> Snapshot:
        snap_id = new_id("snap")
        pool = self.warm.pool_for(sandbox)
        diff = None
        with ThreadPoolExecutor(1) as ex:  # the commit runs in the engine while the diff is read through the shell
            image = ex.submit(self._commit_image, sandbox, snap_id)
            try:
                if pool is not None and pool.manifest is not None:
                    diff = capture_diff(sandbox, pool.manifest)
            except BaseException:  # no snapshot holds the image: it would stay on the engine
                if image.exception() is None:
                    sandbox.engine.remove("image", image.result())
                raise
            image_id = image.result()
        spec = sandbox.spec.from_snapshot(state)
        return DockerSnapshot(self, snap_id, spec, sandbox.engine, image_id, diff,
                              sandbox.base_image if diff is not None else None)

    def _copy_on(self, snapshot: DockerSnapshot, engine: Engine) -> str:
        """The snapshot's image on `engine`, moved there from an engine that holds it if needed."""
        with snapshot.copy_lock:
            if engine not in snapshot.copies:
                src = next((e for e in snapshot.copies if e.up), None)
                if src is None:
                    raise EngineDown(f"snapshot {snapshot.id}: no engine holding it is answering")
                self.transfer(src, engine, snapshot.ref)
                snapshot.copies[engine] = snapshot.ref  # save/load keeps the image id
            return snapshot.copies[engine]

    def _place_forks(self, snapshot: DockerSnapshot, n: int) -> list[Engine]:
        """One reserved slot per fork: on an engine that holds the snapshot while it has room, else on the
        least-loaded engine (the snapshot moves there)."""
        slots: list[Engine] = []
        try:
            for _ in range(n):
                engine = self.pool.reserve(on=list(snapshot.copies), wait=False)
                slots.append(engine or self.pool.reserve(prefer=lambda e: e in snapshot.copies))
        except BaseException:
            for engine in slots:
                self.pool.release(engine)
            raise
        return slots

    def _forks_on(self, engine: Engine, snapshot: DockerSnapshot, n: int) -> list:
        """Jobs that each make one fork on `engine` (whose slots are already reserved)."""
        warm = self.warm.take(engine, snapshot, n) if snapshot.diff is not None else []
        try:
            image = self._copy_on(snapshot, engine) if len(warm) < n else None
        except BaseException:
            for sb in warm:
                sb.close()
            raise

        def adopt(sb):
            def job():
                try:
                    sb.adopt(snapshot)
                except BaseException:
                    self.pool.release(engine)
                    sb.close()
                    raise
                return sb
            return job

        def cold():
            snapshot.acquire()  # released by the fork's close(), also when its creation fails
            return DockerSandbox(self, engine, snapshot.spec, image, parent=snapshot, slot=True)

        return [adopt(sb) for sb in warm] + [cold] * (n - len(warm))

    def fork(self, snapshot: Snapshot, n: int) -> list[DockerSandbox]:
        slots = self._place_forks(snapshot, n)
        jobs, errors = [], []
        for engine in dict.fromkeys(slots):
            count = slots.count(engine)
            try:
                jobs += self._forks_on(engine, snapshot, count)
            except Exception as e:
                errors.append(e)
                for _ in range(count):
                    self.pool.release(engine)
        pending, lock = list(jobs), threading.Lock()

        def one():
            with lock:
                job = pending.pop()
            return job()

        try:
            out = start_in_parallel(one, len(jobs)) if jobs else []
        finally:
            if snapshot.diff is not None:
                for engine in dict.fromkeys(slots):
                    self.warm.refill(engine, snapshot)
        if errors:
            for s in out:
                s.close()
            raise errors[0]
        return out

    def delete_snapshot(self, snapshot: Snapshot) -> None:
        for engine, image_id in list(snapshot.copies.items()):
            engine.remove("image", image_id)

    def export_snapshot(self, snapshot: Snapshot, dest_dir: Path) -> str:
        engine = next((e for e in snapshot.copies if e.up), snapshot.engine)
        with engine.guard(f"saving snapshot {snapshot.id}"), open(Path(dest_dir) / "image.tar", "wb") as f:
            for chunk in engine.slow.api.get_image(snapshot.ref):
                f.write(chunk)
        return "image.tar"

    def _import_snapshot(self, path: Path, spec: SandboxSpec) -> Snapshot:
        engine = self.pool.least_loaded()
        with engine.guard(f"loading {path}"), open(path, "rb") as f:
            images = engine.slow.images.load(f)
        return DockerSnapshot(self, new_id("snap"), spec, engine, images[0].id)

    def close(self) -> None:
        """Empties the warm pools and stops watching the engines (sandboxes still open stay open)."""
        self.warm.close()
        self.pool.close()
