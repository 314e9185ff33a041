"""The docker backend over a pool of two real engines: the machine's own and a scratch `dockerd` this module starts
(own socket, data root, exec root and pidfile; stopped and removed at the end, also when a test fails)."""

from __future__ import annotations

import hashlib
import json
import threading
import time

import pytest

from conftest import BASE_IMAGE, require_docker
from reterm import suites
from reterm.evaluation.baselines import OracleAgent
from reterm.evaluation.trials import run_tasks
from reterm.sandbox import SandboxError
from reterm.sandbox.docker_engines import DEFAULT_CAPACITY, EngineSpec, default_hosts, parse_docker_hosts
from reterm.sandbox.resources import owner_id

pytestmark = pytest.mark.docker
IMAGE_MAP = {"ubuntu": BASE_IMAGE, "debian": BASE_IMAGE}


@pytest.fixture(scope="module")
def scratch():
    require_docker()
    from reterm.sandbox.scratch_engine import ScratchEngine

    engine = ScratchEngine(images=(BASE_IMAGE,), tls=True)
    try:
        engine.start()
        yield engine
    finally:
        engine.stop()
    assert not engine.root.exists()


def _backend(specs, warm=0):
    from reterm.sandbox.docker_backend import DockerBackend

    return DockerBackend(image_map=IMAGE_MAP, hosts=specs, warm=warm)


def _main(capacity: int) -> EngineSpec:
    return EngineSpec(default_hosts()[0].url, capacity)


def _census(backend) -> dict:
    """What this backend left on each engine (this process's other backends, the session's cached one with its warm
    containers included, are not counted)."""
    from reterm.sandbox.scratch_engine import census

    return {e.url: census(e, owner_id(), backend.id) for e in backend.engines}


def _fingerprint(sb) -> str:
    listing = sb.exec("find /app /root -xdev -type f -exec sha256sum {} + | sort").output
    st = sb.shell_state
    return hashlib.sha256((listing + st.cwd + repr(sorted(st.env.items()))).encode()).hexdigest()


def test_engine_lists_parse_and_bad_ones_say_what_is_wrong(monkeypatch):
    specs = parse_docker_hosts("unix:///a.sock=4, tcp://10.0.0.2:2376=16,ssh://me@box")
    assert specs == [EngineSpec("unix:///a.sock", 4), EngineSpec("tcp://10.0.0.2:2376", 16),
                     EngineSpec("ssh://me@box", DEFAULT_CAPACITY)]
    for bad, words in [("a.sock", "not an engine URL"), ("unix:///a.sock=x", "not a whole number"),
                       ("unix:///a.sock=0", "at least 1"), ("unix:///a=1,unix:///a=2", "listed twice"), ("", "no")]:
        with pytest.raises(ValueError, match=words):
            parse_docker_hosts(bad)
    monkeypatch.setenv("RETERM_DOCKER_HOSTS", "unix:///b.sock=3")
    assert default_hosts() == [EngineSpec("unix:///b.sock", 3)]
    monkeypatch.setenv("RETERM_DOCKER_HOSTS", "nonsense")
    with pytest.raises(ValueError, match="RETERM_DOCKER_HOSTS"):
        default_hosts()


def test_sandboxes_go_to_the_least_loaded_engine(scratch):
    backend = _backend([_main(8), scratch.spec])
    task = suites.load("basic", "train")[0]
    boxes = []
    try:
        for _ in range(12):
            boxes.append(backend.start(task))
        per_engine = {e.url: sum(1 for b in boxes if b.engine is e) for e in backend.engines}
        # load / capacity stays level: 8 and 64 -> the big engine takes most, the small one its share
        assert per_engine == {backend.engines[0].url: 2, scratch.url: 10}
        for b in boxes:  # each container really lives on the engine the sandbox names
            assert b.engine.client.containers.get(b.container.id).status == "running"
            assert b.exec("echo ok").output == "ok\n"
    finally:
        for b in boxes:
            b.close()
        backend.close()
    assert all(e.load == 0 for e in backend.engines)
    assert _census(backend) == {e.url: {"containers": [], "images": []} for e in backend.engines}


def test_forks_stay_next_to_their_snapshot_and_move_when_it_is_full(scratch):
    # the scratch engine first (ties go to it) with room for one sandbox: the source lands there and fills it
    backend = _backend([EngineSpec(scratch.url, 1), _main(8)])
    scratch_engine, main_engine = backend.engines
    task = suites.load("basic", "train")[0]
    sb = backend.start(task)
    try:
        assert sb.engine is scratch_engine
        sb.exec("cd /app && mkdir -p w && echo v1 > w/f.txt && export MARK=snap && rm -f sales.txt")
        before = _fingerprint(sb)
        with sb.snapshot() as snap:
            assert list(snap.copies) == [scratch_engine]
            forks = snap.fork(2)  # no room next to the snapshot: it moves to the main engine by save | load
            assert main_engine in snap.copies
            assert main_engine.client.images.get(snap.ref).id == snap.ref
        try:
            assert all(f.engine is main_engine for f in forks)
            assert all(_fingerprint(f) == before for f in forks)
        finally:
            for f in forks:
                f.close()
        sb.close()
        backend2 = _backend([EngineSpec(scratch.url, 8), _main(8)])
        src = backend2.start(task)
        src.exec("echo here > /app/here.txt")
        with src.snapshot() as snap:
            forks = snap.fork(3)
        try:
            assert [f.engine for f in forks] == [src.engine] * 3 and list(snap.copies) == [src.engine]
            assert all(f.exec("cat /app/here.txt").output == "here\n" for f in forks)
        finally:
            for f in forks + [src]:
                f.close()
            backend2.close()
    finally:
        sb.close()
        backend.close()
    assert _census(backend) == {e.url: {"containers": [], "images": []} for e in backend.engines}


def test_warm_forks_match_their_source_file_tree_cwd_and_variables(scratch):
    """Forks made from warm containers (no container start): same files (new, changed, deleted, a file replaced by
    a directory and a directory by a file, symlinked, chmod-ed), cwd and variables as the source, and independent
    of each other."""
    backend = _backend([_main(16)], warm=3)
    task = suites.load("basic", "train")[0]
    try:
        backend.prewarm(task)
        sb = backend.start(task)
        sb.exec("cd /app && mkdir -p w/deep && echo v1 > w/deep/f.txt && chmod 640 w/deep/f.txt && "
                "ln -s w/deep/f.txt link && rm -f sales.txt /etc/issue && rm -rf /usr/share/doc && "
                "rm -f /etc/motd && mkdir /etc/motd && echo dir > /etc/motd/x && "
                "rm -rf /etc/default && echo file > /etc/default && export MARK='a b'")
        probe = "ls -la /etc/motd /usr/share | sha256sum; cat /etc/default; stat -c %a w/deep/f.txt; readlink link; " \
            "ls /etc/issue 2>&1"
        before = _fingerprint(sb) + sb.exec(probe).output
        with sb.snapshot() as snap:
            assert snap.diff is not None and snap.diff.deleted
            t = time.monotonic()
            forks = snap.fork(3)
            assert time.monotonic() - t < 5
        try:
            assert all(f.container.attrs["Config"]["Image"] == f.base_image for f in forks)  # warm, not committed
            for f in forks:
                assert _fingerprint(f) + f.exec(probe).output == before
            forks[0].exec("echo changed > w/deep/f.txt; export MARK=f0")
            assert forks[1].exec("cat w/deep/f.txt; echo $MARK").output == "v1\na b\n"
            with forks[0].snapshot() as again:  # a fork of a warm fork carries both diffs
                [grand] = again.fork(1)
            assert grand.exec("cat w/deep/f.txt; echo $MARK; ls /etc/issue 2>&1 | wc -l").output == "changed\nf0\n1\n"
            grand.close()
        finally:
            for f in forks:
                f.close()
            sb.close()
    finally:
        backend.close()
    assert _census(backend) == {e.url: {"containers": [], "images": []} for e in backend.engines}


def test_a_snapshot_whose_diff_cannot_be_read_forks_from_its_committed_image(scratch, monkeypatch):
    """Where the diff capture's output is not base64 (here the image's own `base64` prints a stray character after
    its line, as a background process writing into the shell's output would), the snapshot does not fail: it has no
    diff, and its fork starts from the committed image with the source's files. A snapshot interrupted while the diff
    is read (Ctrl-C, injected: it cannot be timed from here) leaves no committed image behind."""
    from reterm.sandbox import docker_backend
    backend = _backend([_main(16)], warm=2)
    task = suites.load("basic", "train")[0]
    try:
        backend.prewarm(task)
        sb = backend.start(task)
        sb.exec("echo kept > /app/kept.txt && mv /usr/bin/base64 /usr/bin/base64.real && "
                "printf '#!/bin/sh\\n/usr/bin/base64.real \"$@\"; printf A\\n' > /usr/bin/base64 && "
                "chmod +x /usr/bin/base64")
        assert sb.exec("echo hi | base64 -w0").output == "aGkKA"  # not base64: 5 characters
        with sb.snapshot() as snap:
            assert snap.diff is None
            [fork] = snap.fork(1)
        try:
            assert fork.base_image is None and fork.container.attrs["Config"]["Image"] != sb.base_image
            assert fork.exec("cat /app/kept.txt").output == "kept\n"
            sb.exec("mv /usr/bin/base64.real /usr/bin/base64")

            def interrupted(*a, **k):
                raise KeyboardInterrupt

            monkeypatch.setattr(docker_backend, "capture_diff", interrupted)
            with pytest.raises(KeyboardInterrupt):
                sb.snapshot()
        finally:
            fork.close()
            sb.close()
    finally:
        backend.close()
    assert _census(backend) == {e.url: {"containers": [], "images": []} for e in backend.engines}


class _SlowOracle(OracleAgent):
    """The reference solution after a 6 s command, so trials are in flight when an engine dies."""

    def run(self, sandbox, task):
        sandbox.exec("sleep 6", timeout=30)
        return super().run(sandbox, task)


def test_an_engine_killed_mid_run_fails_only_its_trials_and_leaks_nothing(scratch, tmp_path):
    backend = _backend([_main(4), EngineSpec(scratch.url, 4)], warm=2)
    main_engine, scratch_engine = backend.engines
    tasks = [t for t in suites.load("basic", "train")][:12]
    for t in tasks:  # builds first, so that the run's first wave starts at once
        for e in backend.engines:
            backend.image_for(t, e)
    killed_at = []

    def kill_when_busy():
        while scratch_engine.load < 3:
            time.sleep(0.05)
        time.sleep(1)
        scratch.kill()
        killed_at.append(time.monotonic())

    killer = threading.Thread(target=kill_when_busy)
    killer.start()
    ended: dict[str, float] = {}
    try:
        summary = run_tasks(tasks, backend, _SlowOracle(), tmp_path / "out", concurrency=8,
                            on_result=lambda r: ended.setdefault(r["task_id"], time.monotonic()))
        killer.join()
        rows = [json.loads(l) for l in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
        failed = [r for r in rows if r["infra_error"]]
        assert 1 <= len(failed) <= 4 and all(scratch.url in r["infra_error"] for r in failed), \
            [(r["task_id"], r["infra_error"]) for r in failed]
        assert all(r["reward"] is None for r in failed)
        assert summary["n"] == 12 and summary["n_passed"] == 12 - len(failed)
        # the killed engine's trials were reported soon after the kill (not at their timeouts), and took no new work
        assert max(ended[r["task_id"]] for r in failed) - killed_at[0] < 30  # not their timeouts
        assert not scratch_engine.up and scratch_engine.load == 0
        assert scratch_engine.debt  # its containers could not be removed while it was down
        scratch.start()  # back: the monitor sees it answer and removes what it owed
        deadline = time.monotonic() + 60
        while (not scratch_engine.up or scratch_engine.debt) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert scratch_engine.up and not scratch_engine.debt
    finally:
        killer.join()
        if scratch.proc.poll() is not None:
            scratch.start()
        backend.close()
    assert _census(backend) == {e.url: {"containers": [], "images": []} for e in backend.engines}


def test_a_pool_with_no_engine_up_says_so(tmp_path):
    from reterm.sandbox.docker_backend import DockerBackend

    with pytest.raises(SandboxError, match="no Docker daemon answers"):
        DockerBackend(hosts=[EngineSpec(f"unix://{tmp_path}/none.sock", 2)])


DRIVER = """
import sys, time
from reterm import suites
from reterm.sandbox import make_backend
from reterm.sandbox.resources import owner_id
backend = make_backend("docker", image_map={"ubuntu": "reterm/base:bookworm"})
task = suites.load("basic", "train")[0]
boxes = [backend.start(task) for _ in range(4)]
snap = boxes[-1].snapshot()
print(owner_id(), sorted({b.engine.url for b in boxes} | set(e.url for e in snap.copies)), flush=True)
time.sleep(600)
"""


def test_gc_all_hosts_cleans_every_engine_of_the_pool(scratch):
    import os
    import signal
    import subprocess
    import sys

    from reterm.sandbox.docker_engines import Engine
    from reterm.sandbox.scratch_engine import census

    hosts = f"{default_hosts()[0].url}=2,{scratch.url}=2"
    env = {**os.environ, "RETERM_DOCKER_HOSTS": hosts}
    proc = subprocess.Popen([sys.executable, "-c", DRIVER], stdout=subprocess.PIPE, text=True, env=env)
    try:
        line = proc.stdout.readline().split(" ", 1)
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    owner, engines = line[0], line[1]
    engines_of_pool = [Engine(s) for s in parse_docker_hosts(hosts)]
    assert all(e.url in engines for e in engines_of_pool)  # the dead driver left sandboxes on both
    left = [census(e, owner) for e in engines_of_pool]
    assert all(c["containers"] for c in left) and sum(len(c["images"]) for c in left) == 1
    r = subprocess.run([sys.executable, "-m", "reterm.cli", "sandbox", "gc", "--all-hosts", "--docker-hosts", hosts],
                       capture_output=True, text=True, env={k: v for k, v in env.items() if k != "RETERM_DOCKER_HOSTS"})
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout.strip().splitlines()[-1])["containers"] >= 4
    assert [census(e, owner) for e in engines_of_pool] == [{"containers": [], "images": []}] * 2


def test_an_engine_that_hangs_cannot_hang_a_command(scratch):
    """A frozen daemon (SIGSTOP: connections open, nothing answers) is found by the monitor's ping timeout; the
    command waiting on it ends with EngineDown in bounded time, and the engine is used again once it answers."""
    import os
    import signal

    from reterm.sandbox.docker_engines import PROBE_INTERVAL_S, PROBE_STRIKES, PROBE_TIMEOUT_S, EngineDown

    backend = _backend([EngineSpec(scratch.url, 4)])
    task = suites.load("basic", "train")[0]
    sb = backend.start(task)
    engine = sb.engine
    try:
        os.kill(scratch.proc.pid, signal.SIGSTOP)
        t = time.monotonic()
        with pytest.raises(EngineDown, match=scratch.url):
            sb.exec("sleep 60", timeout=120)
        # within the probes' strikes (about 8 s quiet), with slack for busy cores; not the command's 60 s
        assert time.monotonic() - t < 2 * PROBE_STRIKES * (PROBE_INTERVAL_S + PROBE_TIMEOUT_S) + 20
        assert not engine.up
        sb.close()  # cannot remove it now: owed
        assert engine.debt and engine.load == 0
        with pytest.raises(EngineDown):
            backend.start(task)
    finally:
        os.kill(scratch.proc.pid, signal.SIGCONT)
    deadline = time.monotonic() + 60
    while (not engine.up or engine.debt) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert engine.up and not engine.debt
    again = backend.start(task)
    assert again.exec("echo back").output == "back\n"
    again.close()
    backend.close()
    assert _census(backend) == {scratch.url: {"containers": [], "images": []}}


def test_ssh_engines_go_through_a_forwarded_socket_that_is_restarted(scratch, tmp_path, monkeypatch):
    """ssh:// engines: ReTerm runs `ssh -L local.sock:remote.sock` and talks to the forwarded socket. No sshd runs
    here, so `ssh` is a stand-in (tests/fake_ssh.py) that forwards the socket on this machine; the docker traffic
    through it (API calls, the shells' exec streams, forks) is real."""
    import os
    from pathlib import Path

    from reterm.sandbox.docker_engines import EngineDown

    bindir = tmp_path / "bin"
    bindir.mkdir()
    (bindir / "ssh").symlink_to(Path(__file__).resolve().parent / "fake_ssh.py")
    monkeypatch.setenv("PATH", f"{bindir}:{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_SSH_LOG", str(tmp_path / "ssh.log"))
    remote = scratch.url[len("unix://"):]
    backend = _backend([EngineSpec(f"ssh://me@box:2222{remote}", 4)], warm=1)
    engine = backend.engines[0]
    task = suites.load("basic", "train")[0]
    try:
        sb = backend.start(task)
        sb.exec("cd /app && echo over-ssh > s.txt && export V=1")
        with sb.snapshot() as snap:
            [fork] = snap.fork(1)
        assert fork.exec("cat s.txt; echo $V").output == "over-ssh\n1\n"
        first = (tmp_path / "ssh.log").read_text().splitlines()
        assert len(first) == 1 and "-p 2222" in first[0] and first[0].endswith(f":{remote} me@box")
        engine.tunnel.close_process()  # the connection drops
        with pytest.raises(EngineDown):
            sb.exec("true")
        deadline = time.monotonic() + 60
        while not engine.up and time.monotonic() < deadline:
            time.sleep(0.2)
        assert engine.up and len((tmp_path / "ssh.log").read_text().splitlines()) == 2  # a new tunnel
        again = backend.start(task)
        assert again.exec("echo back").output == "back\n"
        for b in (again, fork, sb):
            b.close()
    finally:
        backend.close()
    assert not engine.debt and _census(backend) == {engine.url: {"containers": [], "images": []}}


def test_tcp_engines_speak_mutual_tls(scratch, monkeypatch):
    """tcp:// with DOCKER_TLS_VERIFY / DOCKER_CERT_PATH (the docker CLI's convention): the scratch engine's TLS
    listener, with its own CA and a client certificate; without the certificates it is refused."""
    for k, v in scratch.tls_env().items():
        monkeypatch.setenv(k, v)
    backend = _backend([EngineSpec(scratch.tcp_url, 4)], warm=1)
    task = suites.load("basic", "train")[0]
    try:
        sb = backend.start(task)
        out = sb.exec("head -c 300000 /dev/zero | tr '\\0' x | wc -c; cd /app && export T=tls")
        assert out.output == "300000\n"
        with sb.snapshot() as snap:
            [fork] = snap.fork(1)
        assert fork.exec("pwd; echo $T").output == "/app\ntls\n"
        fork.close()
        sb.close()
    finally:
        backend.close()
    monkeypatch.delenv("DOCKER_TLS_VERIFY")
    monkeypatch.delenv("DOCKER_CERT_PATH")
    with pytest.raises(SandboxError, match="no Docker daemon answers"):
        _backend([EngineSpec(scratch.tcp_url, 4)])
