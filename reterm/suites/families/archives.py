"""Families of kind `archives`: archives and compression. Held out as novel: no training family does this kind of
work. The archives are built by the Dockerfile from staged files (python writes only text), so check.py reads them
back to confirm they were kept."""

from __future__ import annotations

import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d


def _release(rng: random.Random) -> tuple[str, str, dict]:
    """A release tree: (project, top-level dir `proj-x.y.z`, {path below it: content})."""
    proj = rng.choice(WORDS)
    top = f"{proj}-{rng.randint(0, 4)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"
    w = rng.choice([x for x in WORDS if x != proj])
    paths = [f"bin/{proj}", f"conf/{proj}.conf", "conf/logging.conf", "docs/README.txt", f"lib/{proj}/core.py",
             f"lib/{proj}/util.py"] + rng.sample(["share/schema.sql", "LICENSE.txt", f"conf/{w}.conf",
                                                  "docs/CHANGES.txt", f"lib/{proj}/{w}.py", f"share/{w}.csv"], 3)
    tree = {p: f"# {top} {p}\nvalue={rng.randint(1, 10**6)}\n" for p in paths}
    tree[f"bin/{proj}"] = f"#!/bin/sh\necho {top}\n"
    return proj, top, tree


def _stage(top: str, tree: dict) -> dict:
    return {f"environment/files/stage/{top}/{p}": (c, p.startswith("bin/")) for p, c in tree.items()}


def _tree_check(dest: str, want: dict, archive: str, members: list, fmt: str) -> str:
    """check.py lines: exactly `want` ({path below dest: content}) under dest, and the archive still there."""
    dirs = sorted({"/".join(p.split("/")[:i]) for p in want for i in range(1, p.count("/") + 1)})
    return f"""
        import io, lzma, tarfile
        want = {want!r}
        for rel, content in want.items():
            if read(os.path.join("{dest}", rel)) != content:
                fail(f"{dest}/{{rel}} has the wrong content")
        files, dirs = [], []
        for root, ds, fs in os.walk("{dest}"):
            files += [os.path.relpath(os.path.join(root, f), "{dest}") for f in fs]
            dirs += [os.path.relpath(os.path.join(root, x), "{dest}") for x in ds]
        if sorted(files) != sorted(want):
            fail(f"{dest} holds the files {{sorted(files)}}, expected exactly {{sorted(want)}}")
        if sorted(dirs) != {dirs!r}:
            fail(f"{dest} holds the directories {{sorted(dirs)}}, expected exactly {dirs!r}")
        if not os.path.isfile("{archive}"):
            fail("the archive {archive} was removed")
        with open("{archive}", "rb") as f:
            raw = f.read()
        try:
            data = raw if {fmt!r} in ("tar", "gz") else lzma.decompress(raw)
            with tarfile.open(fileobj=io.BytesIO(data)) as tf:
                names = sorted(m.name for m in tf.getmembers() if m.isfile())
        except (lzma.LZMAError, tarfile.TarError, EOFError) as e:
            fail(f"the archive {archive} was changed: {{e}}")
        if names != {sorted(members)!r}:
            fail("the archive {archive} was changed")
        """


def wrong_compression(rng: random.Random):
    proj, top, tree = _release(rng)
    fmt = rng.choice(["xz", "tar", "lzma"])
    archive = f"/app/downloads/{top}" + rng.choice([".tar.gz", ".tgz"])
    dest = "/app/" + rng.choice(["opt", "vendor", "restore", f"srv/{proj}", "unpacked"])
    what = rng.choice(["all", "dir", "files"])
    if what == "all":
        pick = sorted(tree)
        ask = f"Unpack the release archive `{archive}` into `{dest}/` (its files end up under `{dest}/{top}/`)."
    elif what == "dir":
        sub = rng.choice(["conf", "docs", f"lib/{proj}"])
        pick = sorted(p for p in tree if p.startswith(sub + "/"))
        ask = (f"From the release archive `{archive}`, extract only the directory `{top}/{sub}/` into `{dest}/`, "
               f"so that it ends up at `{dest}/{top}/{sub}/`.")
    else:
        pick = sorted(rng.sample(sorted(tree), 2))
        ask = (f"From the release archive `{archive}`, extract only the files `{top}/{pick[0]}` and `{top}/{pick[1]}` "
               f"into `{dest}/`, keeping their paths (`{dest}/{top}/{pick[0]}` and `{dest}/{top}/{pick[1]}`).")
    pack = {"xz": f"tar --sort=name -cJf {archive} {top}", "tar": f"tar --sort=name -cf {archive} {top}",
            "lzma": f"tar --sort=name -cf - {top} | xz --format=lzma > {archive}"}[fmt]
    flag = {"xz": "-J", "tar": "", "lzma": "--lzma"}[fmt]
    members = [f"{top}/{p}" for p in pick]
    want = {f"{top}/{p}": tree[p] for p in pick}
    files = _stage(top, tree)
    files.update({
        "environment/Dockerfile": (DOCKERFILE + f"RUN mkdir -p /app/downloads && cd /app/stage && {pack} && "
                                                f"cd /app && rm -rf /app/stage\n", False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            mkdir -p {dest}
            tar {flag} -xf {archive} -C {dest} {' '.join(members) if what != 'all' else ''}
            """), True),
        "tests/check.py": (check_py(_tree_check(dest, want, archive, [f"{top}/{p}" for p in tree], fmt)), False),
    })
    keep = " Extract nothing else, and keep" if what != "all" else " Keep"
    instruction = ask + keep + " the archive where it is.\n"
    return instruction, files, {"category": "wrong_format", "defect": fmt}


def strip_components(rng: random.Random):
    proj, top, tree = _release(rng)
    dot = rng.random() < 0.4  # members stored as ./proj-x.y.z/...: one more leading component
    mode = rng.choice(["all", "pattern"])
    archive = f"/app/dist/{top}.tar.gz"
    dest = "/app/" + rng.choice([f"opt/{proj}", f"srv/{proj}", "install", "site", f"{proj}"])
    if mode == "all":
        want = dict(tree)
        ask = (f"Install the release `{archive}` into `{dest}/`: its files must sit directly in that directory, "
               f"without the archive's top-level `{top}/` directory (so the launcher is `{dest}/bin/{proj}`).")
    else:
        ext = rng.choice(sorted({"." + p.rsplit(".", 1)[1] for p in tree if "." in p.rsplit("/", 1)[-1]}
                                - {".sql", ".csv"}))
        want = {p: c for p, c in tree.items() if p.endswith(ext)}
        ask = (f"From the release `{archive}`, extract only the `*{ext}` files into `{dest}/`, keeping their paths "
               f"below the archive's top-level `{top}/` directory but without that directory (so "
               f"`{top}/{sorted(want)[0]}` becomes `{dest}/{sorted(want)[0]}`).")
    strip = 2 if dot else 1
    pattern = f" --wildcards '*{ext}'" if mode == "pattern" else ""
    files = _stage(top, tree)
    mk = f" && mkdir -p {dest}" if rng.random() < 0.5 else ""
    files.update({
        "environment/Dockerfile": (DOCKERFILE + f"RUN mkdir -p /app/dist && cd /app/stage && tar --sort=name -czf "
                                                f"{archive} {'./' if dot else ''}{top} && cd /app && rm -rf /app/stage"
                                                f"{mk}\n", False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            mkdir -p {dest}
            tar -xzf {archive} -C {dest} --strip-components={strip}{pattern}
            """), True),
        "tests/check.py": (check_py(_tree_check(dest, want, archive,
                                                [f"{'./' if dot else ''}{top}/{p}" for p in tree], "gz")), False),
    })
    instruction = ask + " Extract nothing else, and keep the archive where it is.\n"
    return instruction, files, {"category": "archive_layout", "defect": f"{mode}_{'dot' if dot else 'plain'}"}


FAMILIES = [
    Family("wrong-compression", wrong_compression, kind="archives"),
    Family("strip-components", strip_components, kind="archives"),
]
