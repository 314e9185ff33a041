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
