"""The `docker` backend (python docker SDK): one container per sandbox, `docker commit` for snapshots.

- Task images are built from the task's environment dir, tagged by a hash of it (`reterm-task/<id>:<hash>`), and
  reused. `FROM` lines and `docker_image` go through the image map first; an image that is not present locally is
  an error with the fix in it: ReTerm never pulls.
- Containers run with no network (unless the task allows it *and* the user passed --allow-internet), the task's
  cpu and memory limits, a pids limit, `no-new-privileges`, and labels naming their owner so `gc` can reap them.
- The shell is a `bash` started with `docker exec -i` over a hijacked socket (see `reterm.sandbox.shell`).
- A snapshot is `docker commit` of the container plus the shell state. Forks are new containers from that image;
  each fork holds a reference on the snapshot (Docker cannot delete an image a container still uses), so the image
  goes away when the snapshot and every fork from it are released.
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
from pathlib import Path

from reterm.sandbox import dockerfile as dfile
from reterm.sandbox.base import Backend, Sandbox, SandboxSpec, Snapshot, start_in_parallel
from reterm.sandbox.images import BASE_TAG
from reterm.sandbox.resources import labels, new_id
from reterm.sandbox.shell import DEFAULT_OUTPUT_CAP, PersistentShell, SandboxError, ShellState

DOCKER_BUILD_VERSION = "1"


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
            r, _, _ = select.select([self._sock], [], [], remaining)
            if not r:
                return None
            chunk = self._sock.recv(1 << 16)
            if not chunk:
                return b""
            self._raw += chunk
            data = self._payload()
            if data:
                return data

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


class DockerSandbox(Sandbox):
    backend_name = "docker"

    def __init__(self, backend: "DockerBackend", spec: SandboxSpec, image: str, parent: Snapshot | None = None):
        super().__init__(backend, new_id("sb"), spec)
        self.image = image
        self.container = None
        self._parent = parent
        try:
            self.container = backend.create_container(image, spec, self.id)
            self.shell = PersistentShell(self._open_channel, spec.shell_state.copy(), spec.output_cap, spec.user)
        except BaseException:
            self.close()
            raise

    def _open_channel(self) -> _ExecSocketChannel:
        api = self.backend.client.api
        exec_id = api.exec_create(self.container.id, ["bash", "--noprofile", "--norc"], stdin=True, stdout=True,
                                  stderr=True, tty=False, workdir="/")["Id"]
        return _ExecSocketChannel(api, exec_id)

    def put_archive(self, dest_dir: str, tar_bytes: bytes) -> None:
        res = self.container.exec_run(["mkdir", "-p", dest_dir])
        if res.exit_code != 0:
            raise SandboxError(f"cannot create {dest_dir} in sandbox {self.id}: {res.output.decode()[-300:]}")
        if not self.container.put_archive(dest_dir, tar_bytes):
            raise SandboxError(f"upload to {dest_dir} failed in sandbox {self.id}")

    def snapshot(self) -> Snapshot:
        with self.shell.idle() as state:
            return self.backend.commit(self, state)

    def _destroy(self) -> None:
        try:
            if self.container is not None:
                self.container.remove(force=True, v=True)
        except Exception as e:  # already gone is fine; anything else is a leak worth saying
            if "No such container" not in str(e) and "404" not in str(e):
                raise SandboxError(f"could not remove container {self.container.id[:12]}: {e}") from e
        finally:
            if self._parent is not None:
                self._parent.release()
                self._parent = None


class DockerBackend(Backend):
    name = "docker"

    def __init__(self, image_map: dict[str, str] | None = None, allow_internet: bool = False,
                 output_cap: int | None = None, client=None):
        import docker

        try:
            self.client = client or docker.from_env(timeout=300)
            self.client.ping()
        except Exception as e:
            raise SandboxError(
                f"no Docker daemon answers ({e.__class__.__name__}: {e}). Start one (`dockerd &` as root, or "
                f"`systemctl start docker`), point DOCKER_HOST at a remote engine, or use --backend local"
            ) from None
        self.image_map = dict(image_map or {})
        self.allow_internet = allow_internet
        self.output_cap = output_cap
        self._build_lock = threading.Lock()

    # -- images ----------------------------------------------------------------------------------------------
    def _exists(self, image: str) -> bool:
        import docker

        try:
            self.client.images.get(image)
            return True
        except docker.errors.ImageNotFound:
            return False

    def _require(self, image: str, where: str) -> None:
        if not self._exists(image):
            hint = f"--image-map {image}={BASE_TAG}"
            raise ImageNotFound(
                f"{where}: image {image!r} is not present locally and ReTerm never pulls. Build or load it, or "
                f"map it onto a local image, e.g. `{hint}` (build that one with `reterm images build-base`)"
            )

    def image_for(self, task) -> str:
        if task.dockerfile is None:
            image = dfile.map_image(task.docker_image, self.image_map)
            self._require(image, f"{task.path / 'task.toml'} [environment] docker_image")
            return image
        text = task.dockerfile.read_text()
        rewritten, bases = dfile.rewrite_from(text, self.image_map)
        for base in bases:
            if base.lower() != "scratch":
                self._require(base, f"{task.dockerfile} FROM")
        ctx = task.environment_dir
        ignore = ctx / ".dockerignore"
        exclude = [l.strip() for l in ignore.read_text().splitlines()
                   if l.strip() and not l.startswith("#")] if ignore.is_file() else []
        h = hashlib.sha256(f"docker-{DOCKER_BUILD_VERSION}\0{rewritten}\0".encode())
        for base in bases:
            if base.lower() != "scratch":
                h.update(self.client.images.get(base).id.encode())
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
        with self._build_lock:
            if not self._exists(tag):
                self._build(task, ctx, rewritten, exclude, tag)
        return tag

    def _build(self, task, ctx: Path, dockerfile_text: str, exclude: list[str], tag: str) -> None:
        from docker.utils.build import tar

        name = ".reterm.Dockerfile"
        context = tar(str(ctx), exclude=exclude, dockerfile=(name, dockerfile_text))
        log: list[str] = []
        network = None if (task.allow_internet and self.allow_internet) else "none"
        try:
            for chunk in self.client.api.build(
                fileobj=context, custom_context=True, dockerfile=name, tag=tag, rm=True, forcerm=True, pull=False,
                decode=True, labels=labels("task-image", task.id), network_mode=network,
                timeout=int(task.limits.build_timeout_sec) + 60,
            ):
                if "stream" in chunk:
                    log.append(chunk["stream"])
                if "error" in chunk:
                    output = "".join(log)[-2000:]
                    hint = dfile.build_failure_hint(output + chunk["error"], network is None, task, "docker")
                    raise SandboxError(f"{task.dockerfile}: docker build failed: {chunk['error'].strip()}. {hint}\n"
                                       + output)
        finally:
            context.close()

    # -- containers ------------------------------------------------------------------------------------------
    def create_container(self, image: str, spec: SandboxSpec, sandbox_id: str):
        lab = labels("sandbox", spec.task_id)
        lab["reterm.sandbox"] = sandbox_id
        return self.client.containers.run(
            image, entrypoint=["sleep", "infinity"], command=[], detach=True, init=True, labels=lab,
            hostname="sandbox", network_mode=None if spec.network else "none",
            nano_cpus=int(spec.cpus * 1e9), mem_limit=f"{spec.memory_mb}m", pids_limit=spec.pids,
            security_opt=["no-new-privileges"], working_dir=spec.workdir or "/", name=f"reterm-{sandbox_id}",
        )

    def spec_for(self, task, image: str) -> SandboxSpec:
        cfg = self.client.images.get(image).attrs.get("Config") or {}
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
        return self.image_for(task)

    def start(self, task, progress=None) -> DockerSandbox:
        image = self.image_for(task)
        return DockerSandbox(self, self.spec_for(task, image), image).on_start()

    def commit(self, sandbox: DockerSandbox, state: ShellState) -> Snapshot:
        snap_id = new_id("snap")
        lab = labels("snapshot", sandbox.spec.task_id)
        changes = [f"LABEL {k}={v}" for k, v in lab.items()]
        # pause=False: freezing the container while a `docker exec` is still initialising can deadlock runc (seen
        # here with runc 1.1.5: the container stays Paused forever). The shell is idle during a snapshot anyway (we
        # hold its lock); only background processes could be writing, and they are not part of a snapshot.
        image = sandbox.container.commit(repository="reterm-snapshot", tag=snap_id, changes=changes, pause=False)
        spec = sandbox.spec.from_snapshot(state)
        return Snapshot(self, snap_id, spec, image.id)

    def fork(self, snapshot: Snapshot, n: int) -> list[DockerSandbox]:
        def one():
            snapshot.acquire()  # released by the fork's close(), also when its creation fails
            return DockerSandbox(self, snapshot.spec, snapshot.ref, parent=snapshot)

        return start_in_parallel(one, n)

    def delete_snapshot(self, snapshot: Snapshot) -> None:
        import docker

        try:
            self.client.images.remove(snapshot.ref, force=True, noprune=False)
        except docker.errors.ImageNotFound:
            pass

    def export_snapshot(self, snapshot: Snapshot, dest_dir: Path) -> str:
        image = self.client.images.get(snapshot.ref)
        with open(Path(dest_dir) / "image.tar", "wb") as f:
            for chunk in image.save(named=False):
                f.write(chunk)
        return "image.tar"

    def _import_snapshot(self, path: Path, spec: SandboxSpec) -> Snapshot:
        with open(path, "rb") as f:
            images = self.client.images.load(f.read())
        return Snapshot(self, new_id("snap"), spec, images[0].id)
