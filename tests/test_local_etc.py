"""The local backend's /etc: a seed of the host's readable entries, shared read-only by every environment whose build
cannot change it, and an environment's own seed when its build can (a `RUN`, a `COPY` into /etc). Real bubblewrap
sandboxes on a state root of each test's own."""

import json
import os
import shutil

import pytest

from conftest import harbor_task, write_files
from reterm.sandbox.base import SandboxSpec
from reterm.sandbox.local import LocalBackend, leaves_etc_alone
from reterm.tasks import load_task


def _task(tmp_path, name: str, dockerfile: str, **files):
    root = harbor_task(tmp_path / name, dockerfile=dockerfile)
    write_files(root / "environment", files)
    return load_task(root)


def _meta(env_dir) -> dict:
    return json.loads((env_dir / "meta.json").read_text())


@pytest.mark.parametrize("dockerfile, alone", [
    ("FROM ubuntu:22.04\nWORKDIR /app\n", True),
    ("FROM ubuntu:22.04\nENV A=1\nLABEL x=y\nWORKDIR /app\nCOPY data.txt ./\nCOPY data.txt /srv/etc/\n", True),
    ('FROM ubuntu:22.04\nCOPY ["data.txt", "/opt/data.txt"]\nUSER root\n', True),
    ("FROM ubuntu:22.04\nWORKDIR /app\nRUN mkdir -p /app/out\n", False),
    ("FROM ubuntu:22.04\nCOPY data.txt /etc/reterm.conf\n", False),
    ('FROM ubuntu:22.04\nCOPY ["data.txt", "/etc/"]\n', False),
    ("FROM ubuntu:22.04\nWORKDIR /\nCOPY data.txt etc/\n", False),
    ("FROM ubuntu:22.04\nWORKDIR /etc/app\n", False),
    ("FROM ubuntu:22.04\nCOPY . /\n", False),
    ("FROM ubuntu:22.04\nARG D=/etc\nCOPY data.txt $D/\n", False),
    ("FROM ubuntu:22.04\nUSER nobody\n", False),
])
def test_which_builds_leave_etc_alone(tmp_path, dockerfile, alone):
    assert leaves_etc_alone(_task(tmp_path, "t", dockerfile, **{"data.txt": "x\n"})) is alone


def test_environments_that_leave_etc_alone_share_one_read_only_seed_of_the_hosts_readable_etc(tmp_path):
    be = LocalBackend(root=tmp_path / "home")
    a = _task(tmp_path, "a", "FROM ubuntu:22.04\nWORKDIR /app\nCOPY data.txt ./\n", **{"data.txt": "a\n"})
    b = _task(tmp_path, "b", "FROM ubuntu:22.04\nWORKDIR /srv/b\n")
    env_a, env_b = be.prepare(a), be.prepare(b)
    assert _meta(env_a)["etc"] == _meta(env_b)["etc"]
    shared = be.env_etc(env_a, _meta(env_a))
    assert shared.is_dir() and shared.parent.name.startswith(".etc-")
    assert not (env_a / "etc").exists() and not any((env_a / "fs" / "etc").iterdir())
    with be.start(a) as box:
        with open("/etc/os-release") as f:
            assert box.exec("cat /etc/os-release").output == f.read()
        assert box.exec("cat data.txt").output == "a\n"
        res = box.exec("touch /etc/reterm-written")
        assert not res.ok and "Read-only" in res.output
    if os.path.exists("/etc/shadow") and not os.stat("/etc/shadow").st_mode & 0o004:
        assert not (shared / "shadow").exists()
    assert sorted(p.name for p in (tmp_path / "home" / "envs").iterdir() if p.name.startswith(".etc-")) == \
        [shared.parent.name]


def test_a_build_that_can_change_etc_seeds_its_own_and_its_change_stays_in_that_environment(tmp_path):
    be = LocalBackend(root=tmp_path / "home")
    ran = _task(tmp_path, "ran", "FROM ubuntu:22.04\nRUN echo ran > /etc/reterm-probe\n")
    copied = _task(tmp_path, "copied", "FROM ubuntu:22.04\nCOPY probe.conf /etc/reterm-probe\n",
                   **{"probe.conf": "copied\n"})
    plain = _task(tmp_path, "plain", "FROM ubuntu:22.04\nWORKDIR /app\n")
    for task, word in ((ran, "ran"), (copied, "copied")):
        env = be.prepare(task)
        assert "etc" not in _meta(env) and (env / "etc" / "reterm-probe").read_text() == f"{word}\n"
        with be.start(task) as box:
            assert box.exec("cat /etc/reterm-probe; cat /etc/os-release | head -1").output.startswith(f"{word}\n")
    with be.start(plain) as box:
        assert not box.exec("test -e /etc/reterm-probe").ok
    assert not (be.env_etc(be.prepare(plain), _meta(be.prepare(plain))) / "reterm-probe").exists()


def test_a_snapshot_exported_over_the_shared_seed_carries_etc_and_a_removed_seed_is_seeded_again(tmp_path):
    be = LocalBackend(root=tmp_path / "home")
    task = _task(tmp_path, "a", "FROM ubuntu:22.04\nWORKDIR /app\n")
    with be.start(task) as box:
        box.exec("echo kept > f.txt")
        with box.snapshot() as snap:
            name = be.export_snapshot(snap, tmp_path)
            spec = SandboxSpec.from_dict(json.loads(json.dumps(snap.spec.to_dict())))
    other = LocalBackend(root=tmp_path / "other")
    with other.import_snapshot(tmp_path / name, spec, exported_by="local") as imported:
        [fork] = imported.fork(1)
    with fork:
        with open("/etc/hostname" if os.path.exists("/etc/hostname") else "/etc/os-release") as f:
            first = f.readline()
        assert fork.exec("cat f.txt; head -1 /etc/hostname 2>/dev/null || head -1 /etc/os-release").output == \
            "kept\n" + first

    env = be.prepare(task)
    shared = be.env_etc(env, _meta(env))
    shutil.rmtree(shared.parent)
    env = be.prepare(task)
    assert be.env_etc(env, _meta(env)).is_dir()
    with be.start(task) as box:
        assert box.exec("test -s /etc/os-release").ok
