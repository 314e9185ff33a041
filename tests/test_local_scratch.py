"""Where the local backend keeps its trees: sandboxes and snapshots in a scratch folder (a tmpfs by default), built
environments and what is too large for memory under the state root. Real bubblewrap sandboxes."""

import json
import os
import socket
import time

import pytest

from conftest import harbor_task, state_dirs, write_files
from reterm.sandbox import resources
from reterm.sandbox.local import LocalBackend
from reterm.sandbox.resources import SHM, _is_tmpfs, _shm_usable, make_scratch, owner_id, scratch_root, shm_base
from reterm.tasks import load_task


def _names(base, sub):
    return sorted(p.name for p in (base / sub).iterdir())


def test_sandboxes_and_snapshots_go_to_the_scratch_folder_and_large_trees_to_disk(tmp_path, monkeypatch):
    """With RETERM_SCRATCH set: a sandbox, its snapshot, its forks and an imported snapshot live there; an
    environment's build (its tree moved, not copied) stays under the state root; an environment larger than
    SCRATCH_MAX_TREE is copied to the state root, and so are its snapshots; everything goes at close; no tree is
    counted twice when RETERM_SCRATCH names the state root."""
    monkeypatch.setenv("RETERM_SCRATCH", str(tmp_path / "scratch"))
    home, scratch = tmp_path / "home", tmp_path / "scratch"
    task = load_task(harbor_task(tmp_path / "t", dockerfile="FROM ubuntu:22.04\nWORKDIR /app\nRUN echo built > b\n"))
    be = LocalBackend(home)
    assert be.scratch == scratch
    box = be.start(task)
    try:
        assert box.dir.parent == scratch / "sandboxes"
        assert box.exec("cat b && echo hi > c").output == "built\n"  # the RUN ran in a build box under the root
        snap = box.snapshot()
        assert snap.ref.parent == scratch / "snapshots"
        forks = be.fork(snap, 2)
        assert {f.dir.parent for f in forks} == {scratch / "sandboxes"}
        assert [f.exec("cat c").output for f in forks] == ["hi\n", "hi\n"]
        be.export_snapshot(snap, tmp_path)
        imported = be.import_snapshot(tmp_path / "fs.tar", snap.spec)
        assert imported.ref.parent == scratch / "snapshots"
        [back] = be.fork(imported, 1)
        assert back.exec("cat /app/c").output == "hi\n"
        for s in (*forks, back):
            s.close()
        be.delete_snapshot(imported)
        be.delete_snapshot(snap)
    finally:
        box.close()
    assert _names(scratch, "sandboxes") == _names(scratch, "snapshots") == []
    assert _names(home, "sandboxes") == _names(home, "snapshots") == []

    monkeypatch.setenv("RETERM_SCRATCH", str(home))  # the trees under the state root, each counted once
    box = LocalBackend(home).start(task)
    try:
        assert box.dir.parent == home / "sandboxes" and state_dirs(home) == [box.dir]
    finally:
        box.close()
    monkeypatch.setenv("RETERM_SCRATCH", str(scratch))

    monkeypatch.setattr(resources, "SCRATCH_MAX_TREE", 0)
    big = LocalBackend(home)
    box = big.start(task)
    try:
        assert box.dir.parent == home / "sandboxes"
        snap = box.snapshot()
        assert snap.ref.parent == home / "snapshots"
        big.delete_snapshot(snap)
    finally:
        box.close()
    assert _names(home, "sandboxes") == _names(home, "snapshots") == []


def test_the_default_scratch_is_a_tmpfs_folder_per_state_root(tmp_path, monkeypatch):
    """Without RETERM_SCRATCH, on a machine whose /dev/shm is a tmpfs with room: one folder per user and state root
    there, which names its state root; RETERM_SCRATCH set to the state root keeps the trees under it."""
    monkeypatch.delenv("RETERM_SCRATCH", raising=False)
    if not _shm_usable():
        pytest.skip("/dev/shm is not a tmpfs with 2 GiB free here: the trees stay under the state root")
    a, b = tmp_path / "a", tmp_path / "b"
    sa, sb = make_scratch(a), make_scratch(b)
    try:
        assert sa.parent == sb.parent == shm_base() == SHM / f"reterm-{os.getuid()}" and sa != sb
        assert sa.parent.stat().st_mode & 0o777 == 0o700  # the user's own: no one else reads the trees
        assert (sa / "home").read_text() == str(a.resolve())
        assert scratch_root(a) == sa and _names(sa, "sandboxes") == []
        with open("/proc/self/mounts") as f:
            assert any(line.split()[1:3] == [str(SHM), "tmpfs"] for line in f)
    finally:
        for s in (sa, sb):
            for sub in ("sandboxes", "snapshots"):
                (s / sub).rmdir()
            (s / "home").unlink()
            s.rmdir()
    monkeypatch.setenv("RETERM_SCRATCH", str(a))
    assert scratch_root(a) == a


def test_only_a_tmpfs_that_runs_programs_is_taken():
    shm = "tmpfs /dev/shm tmpfs rw,nosuid,nodev,relatime 0 0\n"
    assert _is_tmpfs(SHM, "/dev/vda / ext4 rw 0 0\n" + shm)
    assert not _is_tmpfs(SHM, shm.replace("nodev,", "nodev,noexec,"))
    assert not _is_tmpfs(SHM, shm + "/dev/vdb /dev/shm ext4 rw 0 0\n")  # the last mount on the path is the one seen
    assert not _is_tmpfs(SHM, "tmpfs /run tmpfs rw 0 0\n")


def test_gc_empties_scratch_folders_whose_state_root_is_gone(tmp_path, monkeypatch):
    """`gc` on a state root also looks at the other scratch folders: where the state root a folder names is gone,
    what dead owners left is removed, and the folder once it is empty and was left alone for ORPHAN_QUIET_S; a live
    owner's tree, a folder touched lately and one whose state root exists stay."""
    from reterm.sandbox import gc

    monkeypatch.setattr(resources, "SHM", tmp_path / "shm")
    base = tmp_path / "shm" / f"reterm-{os.getuid()}"
    dead = f"{socket.gethostname()}:{2 ** 22 + 7}:0"  # above any pid this kernel hands out

    def folder(name, home, owners):
        write_files(base / name, {"home": str(home)})
        for i, owner in enumerate(owners):
            write_files(base / name / "sandboxes" / f"sb-{i}", {"owner.json": json.dumps({"owner": owner})})
        (base / name / "snapshots").mkdir()
        return base / name

    gone = folder("gone", tmp_path / "deleted-home", [dead, dead])
    live = folder("live", tmp_path / "deleted-home", [dead, owner_id()])
    kept = folder("kept", tmp_path, [dead])
    recent = folder("recent", tmp_path / "deleted-home", [])
    for f in (gone, live, kept):
        for sub in ("sandboxes", "snapshots"):
            os.utime(f / sub, (0, time.time() - gc.ORPHAN_QUIET_S - 60))
    report = gc.GcReport()
    gc.gc_local(report, root=tmp_path / "own-home")
    assert not gone.exists() and recent.exists()
    assert _names(live, "sandboxes") == ["sb-1"]
    assert _names(kept, "sandboxes") == ["sb-0"]
    assert sorted(report.state_dirs) == sorted(str(p) for p in (gone / "sandboxes/sb-0", gone / "sandboxes/sb-1",
                                                                live / "sandboxes/sb-0"))
