"""`reterm images build-base`: the offline base image that unpullable task images are mapped onto.

debootstrap (minbase) of Debian bookworm with python3 and pytest (Terminal-Bench v1 tests run pytest), procps,
and minbase's bash, coreutils, findutils, grep and sed, imported into Docker as `reterm/base:bookworm`. The Debian
mirror is the one this machine's apt already uses, so nothing outside the configured package sources is contacted.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

BASE_TAG = "reterm/base:bookworm"
# The everyday tools task images assume (`python` included, as python3), installed by debootstrap from the Debian
# archive this machine's apt already uses. `reterm images build-base --packages` replaces the list.
BASE_PACKAGES = ("python3", "python-is-python3", "python3-pytest", "python3-pip", "python3-venv", "procps", "bash",
                 "coreutils", "findutils", "grep", "sed", "git", "gcc", "g++", "make", "libc6-dev", "openssl",
                 "ca-certificates", "curl", "wget", "sqlite3", "file", "less", "xz-utils", "unzip", "patch", "jq")
ENV_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def apt_mirror(suite: str = "bookworm") -> str | None:
    """The Debian mirror from this machine's apt sources (deb822 or one-line format), if any."""
    candidates: list[str] = []
    for f in sorted(Path("/etc/apt").glob("sources.list.d/*.sources")):
        for stanza in f.read_text().split("\n\n"):
            uris = re.search(r"^URIs:\s*(\S+)", stanza, re.M)
            suites = re.search(r"^Suites:\s*(.+)$", stanza, re.M)
            enabled = re.search(r"^Enabled:\s*no", stanza, re.M | re.I)
            if uris and suites and not enabled and suite in suites.group(1).split():
                candidates.append(uris.group(1))
    for f in [Path("/etc/apt/sources.list"), *sorted(Path("/etc/apt").glob("sources.list.d/*.list"))]:
        if f.is_file():
            for m in re.finditer(rf"^deb\s+(?:\[[^\]]*\]\s+)?(\S+)\s+{suite}\s", f.read_text(), re.M):
                candidates.append(m.group(1))
    for uri in candidates:
        if "security" not in uri:
            return uri
    return None


def build_base(tag: str = BASE_TAG, mirror: str | None = None, force: bool = False, log=print,
               packages: tuple[str, ...] = BASE_PACKAGES) -> str:
    import docker

    try:
        client = docker.from_env(timeout=600)
    except docker.errors.DockerException as e:
        raise RuntimeError(f"no Docker engine answers ({os.environ.get('DOCKER_HOST') or 'the local socket'}: {e}); "
                           f"start dockerd (`bash scripts/setup.sh` does) or set DOCKER_HOST") from None
    if not force:
        try:
            client.images.get(tag)
            log(f"{tag} already exists (use --force to rebuild)")
            return tag
        except docker.errors.ImageNotFound:
            pass
    if shutil.which("debootstrap") is None:
        raise RuntimeError("debootstrap is not installed: `apt-get install -y debootstrap`")
    mirror = mirror or apt_mirror()
    with tempfile.TemporaryDirectory(prefix="reterm-base-") as tmp:
        root = Path(tmp) / "rootfs"
        cmd = ["debootstrap", "--variant=minbase", f"--include={','.join(packages)}", "bookworm", str(root)]
        if mirror:
            cmd.append(mirror)
        log("running: " + " ".join(cmd))
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"debootstrap failed ({proc.returncode}):\n{(proc.stdout + proc.stderr)[-3000:]}")
        for d in ("var/cache/apt/archives", "var/lib/apt/lists"):
            shutil.rmtree(root / d, ignore_errors=True)
            (root / d).mkdir(parents=True, exist_ok=True)
        tar = subprocess.Popen(["tar", "-C", str(root), "-c", "."], stdout=subprocess.PIPE)
        image = client.api.import_image_from_stream(
            tar.stdout, repository=tag.split(":")[0], tag=tag.split(":")[1],
            changes=[f"ENV PATH={ENV_PATH}", "LABEL reterm.managed=1 reterm.kind=base-image"],
        )
        tar.wait()
        if tar.returncode != 0:
            raise RuntimeError("tar of the debootstrap root failed")
        log(f"imported {tag}: {image.strip() if isinstance(image, str) else image}")
    size = client.images.get(tag).attrs.get("Size", 0)
    log(f"{tag}: {size / 1e6:.0f} MB, packages: {' '.join(packages)}")
    return tag
