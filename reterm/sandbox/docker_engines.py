"""A pool of Docker engines behind one docker backend: placement, timeouts, and engines that stop answering.

- Engines are named by URL (`unix:///var/run/docker.sock`, `tcp://host:2376`, `ssh://user@host`), each with a
  capacity (most live sandboxes at once). `tcp://` uses TLS the way the docker CLI does: `DOCKER_TLS_VERIFY=1` and
  the certificates in `DOCKER_CERT_PATH`. `ssh://user@host[:port][/remote.sock]` forwards a local unix socket to the
  remote engine's socket (default /var/run/docker.sock) with the `ssh` client (`ssh -L`, keys from the user's ssh
  config), restarted when it drops: the SDK's own ssh transport cannot be `select`ed on, which the shell needs.
- Placement: a new sandbox goes to the up engine with the lowest load / capacity that has room (ties: the one that
  already holds the image). Callers reserve a slot first and give it back when the sandbox closes.
- Every SDK call has a timeout (`CALL_TIMEOUT_S`; builds, commits and image transfers `SLOW_TIMEOUT_S`), so no call
  waits forever on an engine that stopped answering. A connection error or timeout marks the engine *down*: its
  sandboxes' shells are cut (their next or current command raises `EngineDown`, a `SandboxError`, which the runner
  and the trainer record as an infra failure), it gets no new work, and what could not be removed on it is
  remembered. A monitor thread pings every engine each `PROBE_INTERVAL_S` (a refused connection: down at once; a
  ping timeout: down after `PROBE_STRIKES` in a row); a down engine that answers again has that debt removed and is
  back in the pool.
"""

from __future__ import annotations

import atexit
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import weakref
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import requests

from reterm.sandbox.shell import SandboxError

DEFAULT_CAPACITY = 64
CALL_TIMEOUT_S = 30
SLOW_TIMEOUT_S = 900
PROBE_TIMEOUT_S = 3
PROBE_INTERVAL_S = 1.0
# A refused connection marks an engine down at once; a ping that times out only this many times in a row, so that an
# engine slowed by a busy host is not taken for a dead one (every sandbox on it would fail).
PROBE_STRIKES = 2
PLACEMENT_WAIT_S = 600.0
ENV_HOSTS = "RETERM_DOCKER_HOSTS"
_SCHEMES = ("unix://", "tcp://", "ssh://", "npipe://")


class EngineDown(SandboxError):
    """The Docker engine a sandbox lives on stopped answering (or answered with a transport error)."""


@dataclass(frozen=True)
class EngineSpec:
    url: str
    capacity: int = DEFAULT_CAPACITY


def parse_docker_hosts(value: str, where: str = "--docker-hosts") -> list[EngineSpec]:
    """`URL[=CAPACITY],URL[=CAPACITY],...` -> engine specs; errors name `where` and the bad entry."""
    specs: list[EngineSpec] = []
    for part in (p.strip() for p in value.split(",")):
        if not part:
            continue
        url, sep, cap = part.rpartition("=") if "=" in part else (part, "", "")
        if not url.startswith(_SCHEMES):
            raise ValueError(f"{where}: {part!r} is not an engine URL (unix:///path.sock, tcp://host:port or "
                             f"ssh://user@host, optionally =CAPACITY)")
        try:
            capacity = int(cap) if sep else DEFAULT_CAPACITY
        except ValueError:
            raise ValueError(f"{where}: capacity {cap!r} in {part!r} is not a whole number") from None
        if capacity < 1:
            raise ValueError(f"{where}: capacity in {part!r} must be at least 1")
        if any(s.url == url for s in specs):
            raise ValueError(f"{where}: {url} is listed twice")
        specs.append(EngineSpec(url, capacity))
    if not specs:
        raise ValueError(f"{where}: no engine given")
    return specs


def default_hosts(hosts: str | list[EngineSpec] | None = None) -> list[EngineSpec]:
    """The pool to use: `hosts` if given, else $RETERM_DOCKER_HOSTS, else the one engine $DOCKER_HOST names."""
    if isinstance(hosts, list):
        return hosts
    if hosts:
        return parse_docker_hosts(hosts)
    if os.environ.get(ENV_HOSTS):
        return parse_docker_hosts(os.environ[ENV_HOSTS], ENV_HOSTS)
    return [EngineSpec(os.environ.get("DOCKER_HOST") or "unix:///var/run/docker.sock")]


def _client(url: str, timeout: float):
    import docker
    from docker.utils import kwargs_from_env

    from docker.constants import MINIMUM_DOCKER_API_VERSION

    kw = kwargs_from_env()
    kw["base_url"] = url
    if not url.startswith("tcp://"):
        kw.pop("tls", None)
    # requests lets REQUESTS_CA_BUNDLE / CURL_CA_BUNDLE (set on many machines) replace a tcp:// engine's own CA, and
    # the SDK's automatic version check runs before that can be turned off: ask for the version with a session that
    # ignores the environment, then pin it.
    probe = docker.DockerClient(version=MINIMUM_DOCKER_API_VERSION, timeout=timeout, **kw)
    probe.api.trust_env = False
    try:
        version = probe.api.version(api_version=False)["ApiVersion"]
    finally:
        probe.close()
    client = docker.DockerClient(version=version, timeout=timeout, **kw)
    client.api.trust_env = False
    return client


_tunnels: set = set()


@atexit.register
def _close_tunnels() -> None:
    for t in list(_tunnels):
        t.close()


class SshTunnel:
    """`ssh -L local.sock:remote.sock user@host`, kept up: `url()` restarts it when the ssh process has ended."""

    def __init__(self, url: str):
        target = url[len("ssh://"):]
        host, sep, path = target.partition("/")
        self.remote = "/" + path if sep else "/var/run/docker.sock"
        self.host, self.port = (host.rsplit(":", 1) + [None])[:2] if ":" in host.split("@")[-1] else (host, None)
        self.dir = Path(tempfile.mkdtemp(prefix="reterm-ssh-"))
        self.local = self.dir / "docker.sock"
        self.proc: subprocess.Popen | None = None
        _tunnels.add(self)

    def command(self) -> list[str]:
        return ["ssh", "-nNT", "-o", "BatchMode=yes", "-o", "ExitOnForwardFailure=yes", "-o",
                "StreamLocalBindUnlink=yes", "-o", f"ConnectTimeout={PROBE_TIMEOUT_S * 3}", "-o",
                "ServerAliveInterval=5", "-o", "ServerAliveCountMax=2", *(["-p", self.port] if self.port else []),
                "-L", f"{self.local}:{self.remote}", self.host]

    def url(self, wait: float = 15.0) -> str:
        if self.proc is None or self.proc.poll() is not None:
            self.local.unlink(missing_ok=True)
            self.proc = subprocess.Popen(self.command(), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                         stderr=subprocess.PIPE)
            deadline = time.monotonic() + wait
            while not self._accepting():  # the socket file appears at bind, before ssh listens on it
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    err = self.proc.stderr.read().decode(errors="replace")[-500:] if self.proc.poll() is not None \
                        else f"no forwarded socket after {wait:.0f}s"
                    self.close_process()
                    raise ConnectionError(f"ssh tunnel to {self.host}: {err.strip()}")
                time.sleep(0.05)
        return f"unix://{self.local}"

    def _accepting(self) -> bool:
        """Whether the forwarded socket takes a connection (ssh forwards it to the remote engine, which is probed
        next; this one is closed at once)."""
        if not self.local.exists():
            return False
        with socket.socket(socket.AF_UNIX) as probe:
            try:
                probe.connect(str(self.local))
                return True
            except OSError:
                return False

    def close_process(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc = None

    def close(self) -> None:
        self.close_process()
        shutil.rmtree(self.dir, ignore_errors=True)
        _tunnels.discard(self)


_TRANSPORT_ERRORS = (requests.ConnectionError, requests.Timeout, ConnectionError, TimeoutError)


class Engine:
    """One Docker engine of the pool: its clients, its load, whether it answers, and what it still owes."""

    def __init__(self, spec: EngineSpec, client=None):
        self.url = spec.url
        self.capacity = spec.capacity
        self.load = 0
        self.up = False
        self.down_reason: str | None = None
        self.client = client
        self.slow = client
        self._probe = None
        self.tunnel: SshTunnel | None = None
        self._strikes = 0
        self.build_lock = threading.Lock()
        self.sandboxes: weakref.WeakSet = weakref.WeakSet()  # live sandboxes, cut when the engine goes down
        self._debt: list[tuple[str, str]] = []  # ("container" | "image", id) to remove once it answers again
        self._lock = threading.Lock()
        self.on_down: list = []  # callbacks(engine), e.g. the warm pools dropping their containers

    def __repr__(self) -> str:
        return f"Engine({self.url}, {self.load}/{self.capacity}, {'up' if self.up else 'down'})"

    def connect(self) -> bool:
        """(Re)opens the clients; True when the engine answers."""
        try:
            base = self.url
            if base.startswith("ssh://"):
                self.tunnel = self.tunnel or SshTunnel(base)
                base = self.tunnel.url()  # the same local socket each time: the clients stay valid
            if self._probe is None:
                self._probe = _client(base, PROBE_TIMEOUT_S)
            self._probe.ping()
            if self.client is None:
                self.client = _client(base, CALL_TIMEOUT_S)
            if self.slow is None or self.slow is self.client:
                self.slow = _client(base, SLOW_TIMEOUT_S)
        except Exception as e:  # the SDK raises DockerException, requests errors or OSError for a dead engine
            self._strikes += 1
            if not isinstance(e, requests.Timeout) or self._strikes >= PROBE_STRIKES:
                self.mark_down(f"{e.__class__.__name__}: {e}")
            return False
        self._strikes = 0
        if not self.up:
            self.reap_debt()
            self.up, self.down_reason = True, None
        return True

    def close(self) -> None:
        """Ends the ssh tunnel, if any (the engine itself is untouched); `connect()` opens a new one."""
        if self.tunnel is not None:
            self.tunnel.close()
            self.tunnel = None
            self._probe = self.client = self.slow = None  # they spoke to the tunnel's socket

    def mark_down(self, reason: str) -> None:
        with self._lock:
            was_up, self.up = self.up, False
            self.down_reason = reason
        if was_up:
            for sb in list(self.sandboxes):
                sb.cut()
            for callback in list(self.on_down):
                callback(self)

    @contextmanager
    def guard(self, what: str):
        """Turns a transport failure of any SDK call inside into `EngineDown` and marks the engine down."""
        if not self.up:
            raise EngineDown(f"docker engine {self.url} is not answering ({self.down_reason}); {what} skipped")
        try:
            yield
        except _TRANSPORT_ERRORS as e:
            self.mark_down(f"{e.__class__.__name__}: {e}")
            raise EngineDown(f"docker engine {self.url} stopped answering during {what}: "
                             f"{e.__class__.__name__}: {e}") from None

    def owe(self, kind: str, ref: str) -> None:
        """Remembers a container or image that could not be removed because the engine was down."""
        with self._lock:
            self._debt.append((kind, ref))

    @property
    def debt(self) -> list[tuple[str, str]]:
        with self._lock:
            return list(self._debt)

    def _remove_now(self, kind: str, ref: str) -> None:
        import docker

        try:
            if kind == "container":
                self.client.api.remove_container(ref, force=True, v=True)
            else:
                self.client.api.remove_image(ref, force=True)
        except docker.errors.NotFound:
            pass  # already gone

    def remove(self, kind: str, ref: str) -> None:
        """Removes a container or image now, or remembers it for when the engine answers again."""
        import docker

        if not self.up:
            self.owe(kind, ref)
            return
        try:
            with self.guard(f"removing {kind} {ref[:24]}"):
                self._remove_now(kind, ref)
        except EngineDown:
            self.owe(kind, ref)
        except docker.errors.APIError as e:  # anything but "already gone" is a leak worth saying
            raise SandboxError(f"could not remove {kind} {ref[:24]} on {self.url}: {e}") from e

    def reap_debt(self) -> None:
        with self._lock:
            debt, self._debt = self._debt, []
        for kind, ref in debt:
            try:
                self._remove_now(kind, ref)
            except Exception:
                with self._lock:
                    self._debt.append((kind, ref))

    def has_image(self, image: str) -> bool:
        import docker

        with self.guard(f"looking up image {image}"):
            try:
                self.client.images.get(image)
                return True
            except docker.errors.ImageNotFound:
                return False


class EnginePool:
    """The engines of one backend, a slot count per engine, and the monitor that tells which ones answer."""

    def __init__(self, specs: list[EngineSpec], client=None, probe_interval: float = PROBE_INTERVAL_S,
                 placement_wait: float = PLACEMENT_WAIT_S):
        self.engines = [Engine(s, client if i == 0 else None) for i, s in enumerate(specs)]
        self.placement_wait = placement_wait
        self._cond = threading.Condition()
        for e in self.engines:
            e.connect()
        if not any(e.up for e in self.engines):
            reasons = "; ".join(f"{e.url}: {e.down_reason}" for e in self.engines)
            raise SandboxError(
                f"no Docker daemon answers ({reasons}). Start one (`dockerd &` as root, or `systemctl start "
                f"docker`), point DOCKER_HOST or {ENV_HOSTS} at a remote engine, or use --backend local")
        self._stop = threading.Event()
        self._monitor = threading.Thread(target=self._watch, args=(probe_interval,), daemon=True,
                                         name="reterm-docker-engines")
        self._monitor.start()

    def _watch(self, interval: float) -> None:
        while not self._stop.wait(interval):
            for e in self.engines:
                was_up = e.up
                if e.connect() and not was_up:
                    with self._cond:
                        self._cond.notify_all()

    def close(self) -> None:
        self._stop.set()
        for e in self.engines:
            e.close()

    def up(self) -> list[Engine]:
        return [e for e in self.engines if e.up]

    def least_loaded(self) -> Engine:
        """Where the next sandbox would most likely go (nothing reserved)."""
        with self._cond:
            engine = self._pick(self.engines, lambda e: False) or next(iter(self.up()), None)
        if engine is None:
            raise EngineDown("no docker engine of the pool is answering: "
                             + "; ".join(f"{e.url}: {e.down_reason}" for e in self.engines))
        return engine

    def _pick(self, candidates: list[Engine], prefer) -> Engine | None:
        room = [e for e in candidates if e.up and e.load < e.capacity]
        if not room:
            return None
        return min(room, key=lambda e: (e.load / e.capacity, 0 if prefer(e) else 1, self.engines.index(e)))

    def reserve(self, on: list[Engine] | None = None, prefer=lambda e: False, wait: bool = True) -> Engine | None:
        """A slot on the least-loaded up engine among `on` (default: all); waits for one to free up when every
        engine is full, and raises when none is up or none frees up within `placement_wait`."""
        deadline = time.monotonic() + self.placement_wait
        with self._cond:
            while True:
                candidates = on if on is not None else self.engines
                engine = self._pick(candidates, prefer)
                if engine is not None:
                    engine.load += 1
                    return engine
                if not wait:
                    return None
                if not any(e.up for e in candidates):
                    raise EngineDown("no docker engine of the pool is answering: "
                                     + "; ".join(f"{e.url}: {e.down_reason}" for e in candidates))
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise SandboxError(f"every docker engine is full ({', '.join(map(repr, candidates))}) and "
                                       f"none freed a slot within {self.placement_wait:.0f}s")
                self._cond.wait(min(remaining, 1.0))

    def release(self, engine: Engine) -> None:
        with self._cond:
            engine.load = max(0, engine.load - 1)
            self._cond.notify_all()
