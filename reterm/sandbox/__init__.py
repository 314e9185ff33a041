"""Sandboxes: one contract (`Sandbox`, `Snapshot`, `fork`), two backends (docker, local)."""

from __future__ import annotations

from reterm.sandbox.base import Backend, Sandbox, SandboxSpec, Snapshot, fork
from reterm.sandbox.shell import ExecResult, SandboxError, ShellState

BACKENDS = ("auto", "docker", "local")


def docker_available(hosts: str | None = None) -> bool:
    """Whether an engine of the pool (`hosts`, else $RETERM_DOCKER_HOSTS, else $DOCKER_HOST) answers."""
    from reterm.sandbox.docker_engines import Engine, default_hosts

    try:
        specs = default_hosts(hosts)
    except ValueError:
        return False
    for spec in specs:
        engine = Engine(spec)
        try:
            if engine.connect():
                return True
        finally:
            engine.close()
    return False


def make_backend(name: str = "auto", image_map: dict[str, str] | None = None, allow_internet: bool = False,
                 output_cap: int | None = None, docker_hosts: str | None = None) -> Backend:
    """`auto` is docker when a daemon answers, else local (bubblewrap). `docker_hosts`: the docker backend's pool of
    engines, `URL[=CAPACITY],...` (default $RETERM_DOCKER_HOSTS, else $DOCKER_HOST)."""
    if name not in BACKENDS:
        raise ValueError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")
    if name == "auto":
        name = "docker" if docker_available(docker_hosts) else "local"
    # The backends are imported on first use: every entry point imports this package, `reterm --help` included.
    if name == "docker":
        from reterm.sandbox.docker_backend import DockerBackend

        return DockerBackend(image_map=image_map or {}, allow_internet=allow_internet, output_cap=output_cap,
                             hosts=docker_hosts)
    from reterm.sandbox.local import LocalBackend

    return LocalBackend(allow_internet=allow_internet, output_cap=output_cap)


__all__ = ["Backend", "ExecResult", "Sandbox", "SandboxError", "SandboxSpec", "ShellState", "Snapshot", "fork",
           "make_backend", "docker_available", "BACKENDS"]
