"""Sandboxes: one contract (`Sandbox`, `Snapshot`, `fork`), two backends (docker, local)."""

from __future__ import annotations

from reterm.sandbox.base import Backend, Sandbox, SandboxSpec, Snapshot, fork
from reterm.sandbox.shell import ExecResult, SandboxError, ShellState

BACKENDS = ("auto", "docker", "local")


def docker_available() -> bool:
    try:
        import docker

        client = docker.from_env(timeout=5)
        client.ping()
        client.close()
        return True
    except Exception:
        return False


def make_backend(name: str = "auto", image_map: dict[str, str] | None = None, allow_internet: bool = False,
                 output_cap: int | None = None) -> Backend:
    """`auto` is docker when a daemon answers, else local (bubblewrap)."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")
    if name == "auto":
        name = "docker" if docker_available() else "local"
    # The backends are imported on first use: every entry point imports this package, `reterm --help` included.
    if name == "docker":
        from reterm.sandbox.docker_backend import DockerBackend

        return DockerBackend(image_map=image_map or {}, allow_internet=allow_internet, output_cap=output_cap)
    from reterm.sandbox.local import LocalBackend

    return LocalBackend(allow_internet=allow_internet, output_cap=output_cap)


__all__ = ["Backend", "ExecResult", "Sandbox", "SandboxError", "SandboxSpec", "ShellState", "Snapshot", "fork",
           "make_backend", "docker_available", "BACKENDS"]
