"""`reterm sandbox gc`: remove what runs that are no longer alive left behind.

Removed: containers labelled as ReTerm sandboxes, snapshot images, local sandbox/snapshot state dirs (in the state
root and its scratch folder), unfinished environment builds and cgroups, whose owner process is gone; and scratch
folders on /dev/shm whose state root was deleted, once they hold nothing live. Built task images and environments are
a cache and stay (`reterm images prune` is not needed for correctness). Resources owned by another host are left alone
unless `all_hosts` is set. Every engine of the docker pool is cleaned ($RETERM_DOCKER_HOSTS, else $DOCKER_HOST).
"""

from __future__ import annotations

import os
import time
from datetime import datetime, timezone
from dataclasses import dataclass, field
from pathlib import Path

from reterm.sandbox.local import Cgroup, list_state_dirs, remove_stale_cgroups
from reterm.sandbox.resources import (LABEL_KIND, LABEL_MANAGED, LABEL_OWNER, owner_alive, read_owner_file,
                                     remove_tree, shm_base, state_root)


@dataclass
class GcReport:
    containers: list[str] = field(default_factory=list)
    images: list[str] = field(default_factory=list)
    state_dirs: list[str] = field(default_factory=list)
    cgroups: int = 0
    docker_error: str | None = None

    def total(self) -> int:
        return len(self.containers) + len(self.images) + len(self.state_dirs) + self.cgroups


def _dead(owner: str | None, all_hosts: bool) -> bool:
    if not owner:
        return True
    alive = owner_alive(owner)
    return (alive is None and all_hosts) or alive is False


def gc_docker(report: GcReport, all_hosts: bool = False, client=None, min_age_s: float = 3600.0) -> None:
    """Every engine of the pool ($RETERM_DOCKER_HOSTS, else $DOCKER_HOST); `client`: one engine only."""
    from reterm.sandbox.docker_engines import Engine, default_hosts

    if client is not None:
        _gc_engine(client, report, all_hosts, min_age_s)
        return
    errors = []
    for spec in default_hosts():
        engine = Engine(spec)
        try:
            if not engine.connect():
                errors.append(f"{spec.url}: {engine.down_reason}")
                continue
            _gc_engine(engine.client, report, all_hosts, min_age_s)
        except Exception as e:  # one engine failing half-way must not stop the others from being cleaned
            errors.append(f"{spec.url}: {e.__class__.__name__}: {e}")
        finally:
            engine.close()
    report.docker_error = "; ".join(errors) or None


def _gc_engine(client, report: GcReport, all_hosts: bool, min_age_s: float) -> None:
    import docker

    # A resource that vanishes between listing and removing was removed by a concurrent gc: nothing to do.
    for c in client.containers.list(all=True, filters={"label": f"{LABEL_MANAGED}=1"}):
        if c.labels.get(LABEL_KIND) == "sandbox" and _dead(c.labels.get(LABEL_OWNER), all_hosts):
            try:
                c.remove(force=True, v=True)
            except docker.errors.NotFound:
                continue
            report.containers.append(c.name)
    for img in client.images.list(filters={"label": f"{LABEL_KIND}=snapshot"}):
        if _dead(img.labels.get(LABEL_OWNER), all_hosts):
            try:
                client.images.remove(img.id, force=True)
            except docker.errors.NotFound:
                continue
            report.images.append(img.tags[0] if img.tags else img.short_id)
    _gc_untagged(client, report, min_age_s)


def _gc_untagged(client, report: GcReport, min_age_s: float) -> None:
    """Untagged ReTerm images: the steps a failed `docker build` left behind (they carry the base image's labels,
    so the owner rules above never match them). Only ones older than `min_age_s`, so a build still running keeps
    its steps; one a container still uses stays (no force)."""
    import docker

    cutoff = time.time() - min_age_s
    for img in client.images.list(filters={"dangling": True, "label": f"{LABEL_MANAGED}=1"}):
        created = img.attrs.get("Created", "")
        try:
            ts = datetime.fromisoformat(created[:26].rstrip("Z")).replace(tzinfo=timezone.utc).timestamp()
        except ValueError:
            continue
        if ts > cutoff:
            continue
        try:
            client.images.remove(img.id, force=False, noprune=False)
            report.images.append(img.short_id)
        except docker.errors.APIError:
            pass


def _remove_dead(report: GcReport, dirs, all_hosts: bool) -> None:
    for d, owner in dirs:
        if not _dead((owner or {}).get("owner"), all_hosts):
            continue
        cg = Cgroup.existing(d.name)
        cg.kill_all()
        cg.remove()
        remove_tree(d)
        report.state_dirs.append(str(d))


ORPHAN_QUIET_S = 600  # seconds an orphaned scratch folder must have been left alone before it is removed


def _orphaned_scratch(report: GcReport, all_hosts: bool) -> None:
    """The scratch folders on /dev/shm (resources.scratch_root) whose state root is gone: what dead owners left in
    them, then each folder once nothing is left in it."""
    base = shm_base()
    for folder in sorted(base.iterdir()) if base.is_dir() else []:
        try:
            if os.path.lexists((folder / "home").read_text()):
                continue
            subs = [folder / sub for sub in ("sandboxes", "snapshots") if (folder / sub).is_dir()]
            # a process whose state root was deleted under it may still make trees here: not while that is recent
            quiet = all(time.time() - sub.stat().st_mtime > ORPHAN_QUIET_S for sub in subs)
            _remove_dead(report, [(d, read_owner_file(d)) for sub in subs for d in sub.iterdir()], all_hosts)
            if quiet and not any(any(sub.iterdir()) for sub in subs):
                remove_tree(folder)
        except OSError:  # not ours to read, or gone meanwhile
            continue


def gc_local(report: GcReport, root: Path | None = None, all_hosts: bool = False) -> None:
    root = Path(root) if root else state_root()
    _remove_dead(report, list_state_dirs(root), all_hosts)
    _orphaned_scratch(report, all_hosts)
    alive = {d.name for d, _ in list_state_dirs(root)}
    report.cgroups += remove_stale_cgroups(alive)


def gc(all_hosts: bool = False, docker: bool = True, local: bool = True, root: Path | None = None) -> GcReport:
    report = GcReport()
    if docker:
        gc_docker(report, all_hosts)
    if local:
        gc_local(report, root, all_hosts)
    return report
