"""A throwaway second Docker engine on this machine, for the engine-pool tests and benchmarks.

It runs its own `dockerd` (and the containerd that dockerd starts) with its own socket, data root, exec root,
pidfile, config file and cgroup parent, no bridge, no iptables rules and no IP forwarding, so it shares nothing with
the machine's main engine, which it never touches. `stop()` removes everything it made, also after `kill()`.
With `tls=True` it also listens on `tcp://127.0.0.1:<free port>` with mutual TLS (a throwaway CA, server and client
certificates made with openssl; `tls_env()` is what a client needs).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from reterm.sandbox.docker_engines import Engine, EngineSpec


def _die_with_parent() -> None:
    """A test or benchmark killed with SIGKILL cannot stop its scratch daemon: the kernel sends it SIGTERM instead
    (it then stops its containers; only its data root under /tmp stays behind)."""
    import ctypes

    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


class ScratchEngine:
    def __init__(self, images: tuple[str, ...] = (), capacity: int = 64, tls: bool = False):
        # A short path: containerd's unix sockets live under the exec root and a socket path has 108 bytes at most.
        self.root = Path(tempfile.mkdtemp(prefix="rtd-", dir="/tmp"))
        self.url = f"unix://{self.root}/docker.sock"
        self.capacity = capacity
        self.images = images
        self.proc: subprocess.Popen | None = None
        self._log = None
        self.tcp_url: str | None = None
        if tls:
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                self.tcp_url = f"tcp://127.0.0.1:{s.getsockname()[1]}"
            self._make_certs(self.root / "certs")

    @staticmethod
    def _make_certs(d: Path) -> None:
        d.mkdir()

        def ssl(*args):
            subprocess.run(["openssl", *args], cwd=d, check=True, capture_output=True)

        ssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca-key.pem", "-out", "ca.pem", "-days", "2",
            "-subj", "/CN=reterm-test-ca")
        for name, usage in (("server", "serverAuth"), ("client", "clientAuth")):
            (d / f"{name}.ext").write_text(f"subjectAltName=IP:127.0.0.1\nextendedKeyUsage={usage}\n")
            ssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", f"{name}-key.pem", "-out", f"{name}.csr",
                "-subj", f"/CN={name}")
            ssl("x509", "-req", "-in", f"{name}.csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-CAcreateserial",
                "-out", f"{name}-cert.pem", "-days", "2", "-extfile", f"{name}.ext")
        (d / "client-cert.pem").rename(d / "cert.pem")  # the names the docker client looks for
        (d / "client-key.pem").rename(d / "key.pem")

    def tls_env(self) -> dict[str, str]:
        return {"DOCKER_TLS_VERIFY": "1", "DOCKER_CERT_PATH": str(self.root / "certs")}

    @property
    def spec(self) -> EngineSpec:
        return EngineSpec(self.url, self.capacity)

    def _cmd(self) -> list[str]:
        (self.root / "daemon.json").write_text("{}")
        return ["dockerd", "-H", self.url, "--data-root", str(self.root / "data"), "--exec-root",
                str(self.root / "x"), "--pidfile", str(self.root / "docker.pid"), "--config-file",
                str(self.root / "daemon.json"), "--bridge=none", "--iptables=false", "--ip-forward=false",
                "--ip-masq=false", "--cgroup-parent", self.root.name, "--log-level", "warn"] + self._tls_args()

    def _tls_args(self) -> list[str]:
        if not self.tcp_url:
            return []
        c = self.root / "certs"
        return ["-H", self.tcp_url, "--tlsverify", "--tlscacert", str(c / "ca.pem"), "--tlscert",
                str(c / "server-cert.pem"), "--tlskey", str(c / "server-key.pem")]

    def start(self, timeout: float = 60) -> "ScratchEngine":
        (self.root / "docker.pid").unlink(missing_ok=True)  # a killed daemon's pidfile would stop the next one
        self._log = open(self.root / "dockerd.log", "ab")
        self.proc = subprocess.Popen(self._cmd(), stdout=self._log, stderr=subprocess.STDOUT,
                                     start_new_session=True, preexec_fn=_die_with_parent)
        engine = Engine(self.spec)
        deadline = time.monotonic() + timeout
        while not engine.connect():
            if self.proc.poll() is not None or time.monotonic() > deadline:
                log = (self.root / "dockerd.log").read_text(errors="replace")[-2000:]
                self.stop()
                raise RuntimeError(f"scratch dockerd did not come up:\n{log}")
            time.sleep(0.2)
        self._load(engine)
        return self

    def _load(self, engine: Engine) -> None:
        import docker

        if not self.images:
            return
        main = docker.from_env(timeout=600)
        for image in self.images:
            if not engine.has_image(image):
                engine.slow.api.load_image(main.api.get_image(image))
        main.close()

    def kill(self) -> None:
        """SIGKILL, as a crash would: the containers' processes outlive it until the next start."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def _terminate(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    def stop(self) -> None:
        """Stops the daemon (restarting a killed one first, so it reaps its containers) and removes its files."""
        if self.proc is not None and self.proc.poll() is not None and (self.root / "data").is_dir():
            try:
                self.start()
            except RuntimeError:
                pass
        self._terminate()
        if self._log is not None:
            self._log.close()
        mounts = [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()
                  if line.split()[4].startswith(str(self.root))]
        for m in sorted(mounts, key=len, reverse=True):
            subprocess.run(["umount", "-l", m], capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)
        for ctrl in Path("/sys/fs/cgroup").glob(f"*/{self.root.name}"):
            for d in sorted(ctrl.glob("**/"), key=lambda p: len(str(p)), reverse=True):
                try:
                    os.rmdir(d)
                except OSError:
                    pass

    def __enter__(self) -> "ScratchEngine":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()


def census(engine: Engine, owner: str, backend_id: str | None = None) -> dict:
    """Containers (any state) and snapshot images on one engine carrying `owner`'s label (and, with `backend_id`,
    that backend's): what a leak check counts."""
    from reterm.sandbox.docker_backend import LABEL_BACKEND
    from reterm.sandbox.resources import LABEL_KIND, LABEL_OWNER

    if not engine.connect():
        raise RuntimeError(f"{engine.url} does not answer: {engine.down_reason}")
    mine = [f"{LABEL_OWNER}={owner}"] + ([f"{LABEL_BACKEND}={backend_id}"] if backend_id else [])
    containers = engine.client.containers.list(all=True, filters={"label": mine})
    images = engine.client.images.list(filters={"label": mine + [f"{LABEL_KIND}=snapshot"]})
    return {"containers": [c.name for c in containers], "images": [i.id for i in images]}
