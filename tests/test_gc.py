"""A driver SIGKILLed mid-run leaves sandboxes behind; `reterm sandbox gc` removes all of them."""

from __future__ import annotations

import json
import uuid
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from conftest import require_docker, state_dirs
from reterm.sandbox.resources import LABEL_KIND, LABEL_MANAGED, LABEL_OWNER, owner_alive, state_root

DRIVER = textwrap.dedent("""
    import sys, time
    from reterm import suites
    from reterm.sandbox import make_backend
    backend = make_backend(sys.argv[1])
    task = suites.load("basic")[0]
    sb = backend.start(task)
    sb.exec("echo work > /app/w.txt")
    snap = sb.snapshot()
    forks = snap.fork(2)
    print("READY", flush=True)
    time.sleep(600)
""")


def _leftovers(backend_name: str) -> dict:
    """Resources whose owner is no longer alive."""
    out = {"containers": [], "images": [], "dirs": []}
    if backend_name == "docker":
        import docker

        client = docker.from_env()
        out["containers"] = [c.name for c in client.containers.list(all=True, filters={"label": f"{LABEL_MANAGED}=1"})
                             if c.labels.get(LABEL_KIND) == "sandbox" and not owner_alive(c.labels[LABEL_OWNER])]
        out["images"] = [i.id for i in client.images.list(filters={"label": f"{LABEL_KIND}=snapshot"})
                         if not owner_alive(i.labels[LABEL_OWNER])]
    for sub in ("sandboxes", "snapshots"):
        for d in state_dirs(state_root(), sub):
            owner = json.loads((d / "owner.json").read_text())["owner"]
            if not owner_alive(owner):
                out["dirs"].append(str(d))
    return out


@pytest.mark.parametrize("backend_name", ["local", "docker"])
def test_gc_after_sigkill_leaves_nothing(backend_name):
    if backend_name == "docker":
        require_docker()
    proc = subprocess.Popen([sys.executable, "-c", DRIVER, backend_name], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "READY"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    left = _leftovers(backend_name)
    if backend_name == "docker":
        from reterm.sandbox.docker_fork import WARM_SIZE

        # the sandbox and its 2 forks, and the warm containers the snapshot started filling for later forks
        assert 3 <= len(left["containers"]) <= 3 + WARM_SIZE and len(left["images"]) == 1
    else:
        assert len(left["dirs"]) == 4  # sandbox + snapshot + 2 forks
    killed = {Path(d).name for d in left["dirs"] if Path(d).parent.name == "sandboxes"}
    r = subprocess.run([sys.executable, "-m", "reterm.cli", "sandbox", "gc"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert _leftovers(backend_name) == {"containers": [], "images": [], "dirs": []}
    if backend_name == "local":
        # the killed sandboxes' processes died with their parent, and their cgroups are gone too
        # (only the killed driver's: other runs on this machine may hold cgroups of their own meanwhile)
        cg = Path("/sys/fs/cgroup/pids/reterm")
        if cg.is_dir():
            assert len(killed) == 3 and not killed & {p.name for p in cg.iterdir() if p.is_dir()}


@pytest.mark.docker
def test_gc_removes_untagged_images_a_failed_build_left(tmp_path):
    """A failed `docker build` leaves its finished steps as untagged images carrying the base image's labels."""
    import io

    import docker

    from conftest import require_docker
    from reterm.options import BASE_IMAGE
    from reterm.sandbox.gc import GcReport, gc_docker

    require_docker()
    client = docker.from_env()
    marker = uuid.uuid4().hex
    dockerfile = f"FROM {BASE_IMAGE}\nRUN echo {marker} > /m\nRUN exit 3\n".encode()
    for chunk in client.api.build(fileobj=io.BytesIO(dockerfile), rm=True, forcerm=True, decode=True, pull=False,
                                  network_mode="none"):
        if "error" in chunk:
            break
    left = [i for i in client.images.list(filters={"dangling": True})
            if marker in json.dumps(i.history())]
    assert left, "the failed build left no untagged step image"
    report = GcReport()
    gc_docker(report, min_age_s=0)
    remaining = {i.id for i in client.images.list(filters={"dangling": True})}
    assert not {i.id for i in left} & remaining


def test_gc_leaves_a_cgroup_made_moments_ago(tmp_path, monkeypatch):
    """A sandbox starting beside `reterm sandbox gc` makes its cgroup before its process joins it: gc's sweep removes an
    empty cgroup with no live sandbox only once it is older than CGROUP_MIN_AGE_S (its dir's mtime); one that holds
    anything is never removed (a dead sandbox's own cgroups go with its tree: test_gc_after_sigkill_leaves_nothing).
    (A tree of plain dirs stands in for the cgroup filesystem: rmdir of an empty dir and a dir's mtime behave alike
    there.)"""
    from reterm.sandbox.local import CGROUP_MIN_AGE_S, Cgroup, remove_stale_cgroups

    monkeypatch.setattr(Cgroup, "ROOT", tmp_path)
    base = tmp_path / "pids" / "reterm"
    old = time.time() - CGROUP_MIN_AGE_S - 5
    for name in ("stale", "starting", "alive", "busy"):
        (base / name).mkdir(parents=True)
    (base / "busy" / "cgroup.procs").write_text("1\n")
    for name in ("stale", "alive", "busy"):
        os.utime(base / name, (old, old))
    assert remove_stale_cgroups({"alive"}) == 1
    assert sorted(p.name for p in base.iterdir()) == ["alive", "busy", "starting"]
