"""A small Dockerfile reader: enough to rewrite base images (docker backend) and to interpret a Dockerfile
without Docker (local backend)."""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

from reterm.sandbox.images import BASE_TAG


class DockerfileError(ValueError):
    def __init__(self, path: Path, line: int, message: str):
        self.path, self.line = path, line
        super().__init__(f"{path}:{line}: {message}")


@dataclass
class Instruction:
    keyword: str  # upper case
    args: str  # raw argument text, continuation lines joined
    line: int  # 1-based line of the keyword

    def json_args(self) -> list[str] | None:
        """The exec form (`["a", "b"]`) when used, else None."""
        s = self.args.strip()
        if s.startswith("["):
            try:
                value = json.loads(s)
            except ValueError:
                return None
            if isinstance(value, list) and all(isinstance(v, str) for v in value):
                return value
        return None


def parse(path: Path, text: str | None = None) -> list[Instruction]:
    text = path.read_text() if text is None else text
    out: list[Instruction] = []
    pending: list[str] = []
    start = 0
    for n, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if not pending and (not stripped or stripped.startswith("#")):
            continue
        if pending and stripped.startswith("#"):
            continue  # comment lines inside a continuation are dropped, as docker does
        if not pending:
            start = n
        if stripped.endswith("\\"):
            pending.append(stripped[:-1])
            continue
        pending.append(stripped)
        joined = " ".join(p for p in pending if p)
        pending = []
        parts = joined.split(None, 1)
        out.append(Instruction(parts[0].upper(), parts[1] if len(parts) > 1 else "", start))
    if pending:
        raise DockerfileError(path, start, "the last instruction ends with a line continuation '\\'")
    return out


def parse_image_map(items) -> dict[str, str]:
    """`SRC=DST` pairs from the RETERM_IMAGE_MAP variable and `items` (flags or a config value), each of them comma
    separated; `items` win."""
    mapping: dict[str, str] = {}
    sources = [os.environ.get("RETERM_IMAGE_MAP", ""), *(items or [])]
    for item in [i for source in sources for i in source.split(",") if i.strip()]:
        src, sep, dst = item.partition("=")
        if not sep or not src.strip() or not dst.strip():
            raise ValueError(f"image map entry {item!r} must look like SRC=DST (e.g. ubuntu:22.04={BASE_TAG})")
        mapping[src.strip()] = dst.strip()
    return mapping


def map_image(image: str, mapping: dict[str, str]) -> str:
    """Exact match first, then the repository without a tag (`ubuntu=...` maps every `ubuntu:*`), then `*`."""
    if image in mapping:
        return mapping[image]
    repo = image.rsplit(":", 1)[0] if ":" in image.rsplit("/", 1)[-1] else image
    if repo in mapping:
        return mapping[repo]
    return mapping.get("*", image)


_FROM = re.compile(r"^(\s*FROM\s+)((?:--\S+\s+)*)(\S+)(.*)$", re.IGNORECASE)


def rewrite_from(text: str, mapping: dict[str, str]) -> tuple[str, list[str]]:
    """The Dockerfile with mapped `FROM` images, and the list of base images it ends up using."""
    stages: set[str] = set()
    bases: list[str] = []
    lines = text.splitlines(keepends=True)
    for i, line in enumerate(lines):
        m = _FROM.match(line)
        if not m:
            continue
        image = m.group(3)
        rest = m.group(4)
        alias = re.match(r"\s+AS\s+(\S+)", rest, re.IGNORECASE)
        if image not in stages:  # `FROM builder` refers to an earlier stage, not an image
            image = map_image(image, mapping)
            bases.append(image)
        if alias:
            stages.add(alias.group(1))
        lines[i] = f"{m.group(1)}{m.group(2)}{image}{rest}" + ("\n" if line.endswith("\n") else "")
    return "".join(lines), bases


_VAR = re.compile(r"\$(?:\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))")


def substitute(value: str, env: dict[str, str]) -> str:
    """Docker's build-time `$VAR`, `${VAR}` and `${VAR:-default}` substitution."""

    def repl(m: re.Match) -> str:
        name = m.group(1) or m.group(3)
        if name in env:
            return env[name]
        return m.group(2) or ""

    return _VAR.sub(repl, value)


def parse_key_values(instr: Instruction, path: Path) -> list[tuple[str, str]]:
    """`ENV A=1 B="two words"` or the legacy `ENV A 1`; same for ARG (value optional)."""
    import shlex

    args = instr.args.strip()
    if "=" not in args.split(None, 1)[0]:
        parts = args.split(None, 1)
        if instr.keyword == "ARG" and len(parts) == 1:
            return [(parts[0], "")]
        if len(parts) != 2:
            raise DockerfileError(path, instr.line, f"{instr.keyword} needs KEY=VALUE")
        return [(parts[0], parts[1])]
    try:
        tokens = shlex.split(args)
    except ValueError as e:
        raise DockerfileError(path, instr.line, f"cannot parse {instr.keyword}: {e}") from None
    out = []
    for tok in tokens:
        k, sep, v = tok.partition("=")
        if not sep and instr.keyword != "ARG":
            raise DockerfileError(path, instr.line, f"{instr.keyword} entry {tok!r} needs KEY=VALUE")
        out.append((k, v))
    return out


# What a build step prints when it needed the network and had none (apt, pip, curl, git, DNS).
_NETWORK_FAILURE = re.compile(
    r"Temporary failure (?:in name resolution|resolving)|Could not resolve|Network is unreachable|Failed to fetch|"
    r"Failed to establish a new connection|Name or service not known|No address associated with hostname|"
    r"getaddrinfo|Connection refused|Unable to connect to|Could not connect to", re.IGNORECASE)


def build_failure_hint(output: str, network: bool, task, backend: str) -> str:
    """What to tell a user whose build step failed: the network is off (and how to allow it or pre-build), or, in
    the local backend, that the host system dirs are read-only."""
    if not network and _NETWORK_FAILURE.search(output or ""):
        why = ("task.toml sets allow_internet = false" if not task.allow_internet
               else "--allow-internet was not given")
        return (f"The step needed the network, and builds have none here ({why}). To let it download, allow "
                f"internet in the task and pass --allow-internet; or pre-build the environment where the network "
                f"is available (`docker build -t NAME {task.environment_dir}`) and run it with "
                f"`--backend docker --image-map BASE=NAME` (or [environment] docker_image = \"NAME\").")
    if backend == "local":
        return ("The host's /usr, /bin, /lib and /sbin are read-only in the local backend (packages cannot be "
                "installed there); use --backend docker if the step must change them.")
    return ""
