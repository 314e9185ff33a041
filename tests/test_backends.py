"""Backend selection and the errors a user sees when a backend cannot work."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reterm.sandbox import SandboxError, make_backend


def test_local_backend_without_bubblewrap_says_how_to_install(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # an empty PATH: no bwrap to be found
    with pytest.raises(SandboxError, match=r"apt-get install -y bubblewrap"):
        make_backend("local")


def test_docker_backend_without_a_daemon_says_what_to_do(monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    with pytest.raises(SandboxError, match=r"no Docker daemon answers.*--backend local"):
        make_backend("docker")
    assert make_backend("auto").name == "local"


def test_unknown_backend_is_rejected():
    with pytest.raises(ValueError, match="unknown backend"):
        make_backend("podman")


def test_run_cli_exits_2_when_the_backend_cannot_start(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "DOCKER_HOST": "unix:///nonexistent/docker.sock", "RETERM_HOME": str(tmp_path)}
    r = subprocess.run([sys.executable, "-m", "reterm.cli", "run", "--backend", "docker", "-o", str(tmp_path / "o")],
                       capture_output=True, text=True, env=env)
    assert r.returncode == 2 and "no Docker daemon answers" in r.stderr
    assert not (tmp_path / "o").exists()


def test_an_exec_stream_reset_by_a_dying_engine_ends_in_engine_down_not_a_socket_error():
    """A docker engine SIGKILLed while our bytes sit unread in its socket *resets* the sandbox's exec stream
    (ECONNRESET; a TLS engine's says EOF in violation of protocol) rather than closing it. The shell must take that as
    the stream's end and restart, so that the error a trial reports names the engine (EngineDown), not a bare
    `ConnectionResetError`. A real socket pair stands in for the engine's end; the engine's death itself is exercised
    in test_docker_pool.py."""
    import socket
    import threading

    from reterm.sandbox.docker_backend import _ExecSocketChannel
    from reterm.sandbox.docker_engines import EngineDown
    from reterm.sandbox.shell import PersistentShell, ShellState

    ours, engine_end = socket.socketpair()
    channel = _ExecSocketChannel.__new__(_ExecSocketChannel)  # without an engine to exec_start on
    channel._sock, channel._resp, channel._raw = ours, ours, bytearray()
    opened = []

    def open_channel():
        if opened:
            raise EngineDown("docker engine tcp://engine-under-test is not answering; opening the shell skipped")
        opened.append(channel)
        return channel

    shell = PersistentShell(open_channel, ShellState())  # its launcher's first line is now unread on the engine side
    killer = threading.Timer(0.5, engine_end.close)  # the engine dies while the command below waits for its output
    killer.start()
    try:
        with pytest.raises(EngineDown, match="engine-under-test"):
            shell.exec("sleep 5", timeout=30)
    finally:
        killer.cancel()
        engine_end.close()
        ours.close()
