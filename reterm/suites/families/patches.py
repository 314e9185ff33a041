"""Families of kind `patches`: patches and diffs (`patch`, `diff -u`, `git apply`). Held out as novel: no training
family does this kind of work. Diffs are written by difflib, so every instance's patch is exact and known here."""

from __future__ import annotations

import difflib
import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha

SECTIONS = ["server", "database", "cache", "logging", "auth", "queue", "storage", "metrics"]
KEYS = ["timeout", "retries", "port", "workers", "max_size", "ttl", "level", "backlog", "interval", "threshold",
        "buffer", "batch", "limit", "window", "pool", "depth", "delay", "quota", "shards", "replicas", "keepalive",
        "chunk", "rate", "grace", "slots", "lease", "jitter", "spool", "fanout", "cap", "burst", "ceiling", "prefetch",
        "ring", "stride", "linger", "horizon", "margin", "cooldown", "ramp", "spread", "tenure"]


def _setting(style: str, sec: str, key: str, v: int) -> str:
    return {"conf": f"{key} = {v}", "py": f"{sec.upper()}_{key.upper()} = {v}",
            "env": f"export {sec.upper()}_{key.upper()}={v}"}[style]


def _settings(rng: random.Random, style: str, sections: int, per: int = 5) -> list[str]:
    """A settings file (conf, Python constants or shell exports) of `sections` sections of `per` settings, each
    section `per + 2` lines long (header and blank line), every line unique."""
    keys, lines = rng.sample(KEYS, sections * per), []
    for i, sec in enumerate(rng.sample(SECTIONS, sections)):
        lines.append(f"[{sec}]" if style == "conf" else f"# {sec}")
        lines += [_setting(style, sec, k, rng.randint(2, 9999)) for k in keys[i * per:(i + 1) * per]]
        lines.append("")
    return lines[:-1]


def _bump(rng: random.Random, line: str) -> str:
    head, _, v = line.rpartition("=")
    return f"{head}={' ' if v.startswith(' ') else ''}{int(v) + rng.randint(1, 500) * rng.choice([1, 10])}"


def _module(rng: random.Random, proj: str) -> list[str]:
    out = [f'"""{proj}: limits and helpers."""', ""]
    for w in rng.sample(WORDS, 4):
        out += ["", f"def {w}_limit(x):", f"    return min(x, {rng.randint(10, 999)})", ""]
    return out[:-1]


def _edit(rng: random.Random, lines: list[str], n: int) -> list[str]:
    """`lines` with `n` value changes at distinct lines that hold a number."""
    out = list(lines)
    for i in rng.sample([i for i, x in enumerate(lines) if x.rstrip()[-1:].isdigit() or x.endswith(")")], n):
        out[i] = _bump(rng, out[i]) if "=" in out[i] else out[i].replace(", ", f", {rng.randint(1, 9)} * ", 1)
    return out


def _diff(a: list[str], b: list[str], old: str, new: str) -> str:
    return "".join(difflib.unified_diff([x + "\n" for x in a], [x + "\n" for x in b], old, new))


def _text(lines: list[str]) -> str:
    return "\n".join(lines) + "\n"


def _project(rng: random.Random, proj: str) -> dict:
    """A small project: {relative path: lines}."""
    mod = rng.choice(["limits", "core", "helpers", "rules"])
    return {f"src/{mod}.py": _module(rng, proj), f"src/{proj}_config.py": _settings(rng, "py", 2),
            f"conf/{proj}.conf": _settings(rng, "conf", 3), "scripts/env.sh": _settings(rng, "env", 2)}


def _unchanged(paths: dict) -> str:
    return "".join(f'if hashlib.sha256(read("{p}").encode()).hexdigest() != "{sha(c)}":\n'
                   f'    fail("{p} was modified")\n' for p, c in paths.items())


NO_LEFTOVERS = d("""
    for root, _, fs in os.walk("/app"):
        for f in fs:
            if f.endswith((".rej", ".orig")):
                fail(f"{os.path.join(root, f)} was left behind")
    """)


def patch_strip_level(rng: random.Random):
    proj = rng.choice(WORDS)
    tree = _project(rng, proj)
    defect = rng.choice(["ab", "release_dirs", "nested", "subdir"])
    pool = sorted(p for p in tree if p.startswith("src/")) if defect == "subdir" else sorted(tree)
    changed = rng.sample(pool, 2 if defect == "subdir" else rng.randint(2, 3))
    new = {p: _edit(rng, tree[p], rng.randint(1, 2)) for p in changed}
    v = f"{rng.randint(1, 3)}.{rng.randint(0, 9)}"
    heads = {"ab": ("a/{}", "b/{}"), "release_dirs": (f"{proj}-{v}/{{}}", f"{proj}-{v}.1/{{}}"),
             "nested": (f"a/{proj}/{{}}", f"b/{proj}/{{}}"), "subdir": ("a/{}", "b/{}")}[defect]
    rel = (lambda p: p[len("src/"):]) if defect == "subdir" else (lambda p: p)
    git = defect == "ab" and rng.random() < 0.5
    body = "".join((f"diff --git a/{p} b/{p}\n" if git else "")
                   + _diff(tree[p], new[p], heads[0].format(rel(p)), heads[1].format(rel(p))) for p in sorted(changed))
    patch = f"/app/patches/{rng.choice(['fix', 'hotfix', 'tune', 'update'])}-{rng.randint(100, 999)}." + \
        rng.choice(["diff", "patch"])
    cmd = {"ab": f"-d /app/{proj} -p1", "release_dirs": f"-d /app/{proj} -p1", "nested": f"-d /app/{proj} -p2",
           "subdir": f"-d /app/{proj}/src -p1"}[defect]
    files = {f"environment/files/{proj}/{p}": (_text(x), False) for p, x in tree.items()}
    files.update({
        f"environment/files/{patch[5:]}": (body, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            patch {cmd} -i {patch}
            """), True),
        "tests/check.py": (check_py(d(f"""
            want = {({p: _text(new.get(p, x)) for p, x in tree.items()})!r}
            for p, c in want.items():
                if read(f"/app/{proj}/{{p}}") != c:
                    fail(f"/app/{proj}/{{p}} " + ("is not the patched version" if p in {sorted(changed)!r}
                                                 else "was changed"))
            """) + _unchanged({patch: body}) + NO_LEFTOVERS), False),
    })
    instruction = (f"Apply the patch `{patch}` to the project in `/app/{proj}/`. Do not edit the patch, and leave no "
                   f"backup (.orig) or reject (.rej) files behind.\n")
    return instruction, files, {"category": "wrong_strip_level", "defect": defect}


def make_patch(rng: random.Random):
    proj = rng.choice(WORDS)
    tree = _project(rng, proj)
    layout = rng.choice(["versions", "orig", "nested"])
    v1 = f"{rng.randint(1, 3)}.{rng.randint(0, 9)}"
    v2 = v1 + "." + str(rng.randint(1, 9))
    old, new_dir = {"versions": (f"{proj}-{v1}", f"{proj}-{v2}"), "orig": (f"{proj}.orig", proj),
                    "nested": (f"old/{proj}", f"new/{proj}")}[layout]
    edited = rng.sample(sorted(tree), rng.randint(2, 3))
    new = {p: _edit(rng, x, rng.randint(1, 2)) if p in edited else x for p, x in tree.items()}
    added = rng.random() < 0.5
    if added:
        new[rng.choice(["docs/CHANGES.txt", "conf/extra.conf", f"src/{rng.choice(WORDS)}.py"])] = [
            f"# added in {v2}", f"{rng.choice(KEYS)} = {rng.randint(1, 99)}"]
    out = f"/app/{proj}-{v2}.patch"
    A = {p: _text(x) for p, x in tree.items()}
    B = {p: _text(x) for p, x in new.items()}
    files = {f"environment/files/{old}/{p}": (c, False) for p, c in A.items()}
    files.update({f"environment/files/{new_dir}/{p}": (c, False) for p, c in B.items()})
    files.update({
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            tmp=$(mktemp -d)
            cp -r /app/{old} "$tmp/a" && cp -r /app/{new_dir} "$tmp/b"
            cd "$tmp" && {{ diff -ruN a b > {out} || [ $? -eq 1 ]; }}
            rm -rf "$tmp"
            """), True),
        "tests/check.py": (check_py(f"""
            import subprocess, tempfile
            A, B = {A!r}, {B!r}
            for p, c in A.items():
                if read(f"/app/{old}/{{p}}") != c:
                    fail(f"/app/{old}/{{p}} was changed")
            for p, c in B.items():
                if read(f"/app/{new_dir}/{{p}}") != c:
                    fail(f"/app/{new_dir}/{{p}} was changed")
            text = read("{out}")
            if not any(l.startswith("@@ ") for l in text.splitlines()):
                fail("{out} is not a unified diff")
            with tempfile.TemporaryDirectory() as tmp:
                for p, c in A.items():
                    os.makedirs(os.path.dirname(os.path.join(tmp, p)), exist_ok=True)
                    with open(os.path.join(tmp, p), "w") as f:
                        f.write(c)
                r = subprocess.run(["patch", "-p1", "-f", "-s", "--no-backup-if-mismatch", "-i", "{out}"], cwd=tmp,
                                   stdin=subprocess.DEVNULL, capture_output=True, text=True)
                if r.returncode != 0:
                    fail(f"patch -p1 in a copy of /app/{old} failed: {{(r.stdout + r.stderr)[-400:]}}")
                got = {{}}
                for root, _, fs in os.walk(tmp):
                    for f in fs:
                        with open(os.path.join(root, f)) as fh:
                            got[os.path.relpath(os.path.join(root, f), tmp)] = fh.read()
            diff = sorted(k for k in set(got) | set(B) if got.get(k) != B.get(k))
            if diff:
                fail(f"the patched copy differs from /app/{new_dir} in {{diff}}")
            """), False),
    })
    instruction = (f"`/app/{new_dir}/` is an edited copy of `/app/{old}/`. Write `{out}`, a unified diff such that "
                   f"`patch -p1` run inside a copy of `/app/{old}/` turns that copy into exactly `/app/{new_dir}/` "
                   f"(files added in the new tree included). Do not change either tree.\n")
    return instruction, files, {"category": "patch_format", "defect": layout + ("_added" if added else "")}


def patch_reject(rng: random.Random):
    proj = rng.choice(WORDS)
    style = rng.choice(["conf", "py", "env"])
    rel = {"conf": f"conf/{proj}.conf", "py": f"src/{proj}/settings.py", "env": "scripts/env.sh"}[style]
    n = rng.randint(3, 4)
    a = _settings(rng, style, n + 2, per=6)
    # changed lines: one in each of n sections (not the first), its neighbours settings too; offsets that never
    # decrease keep them >= 8 lines apart, so each change is a hunk of its own
    secs, offs = sorted(rng.sample(range(1, n + 2), n)), sorted(rng.choice(range(2, 6)) for _ in range(n))
    pos = [8 * s + o for s, o in zip(secs, offs)]
    bad = rng.randrange(n)
    ops = [("replace" if k == bad else rng.choice(["replace", "replace", "insert", "delete"]), a[i])
           for k, i in enumerate(pos)]
    fresh = [k for k in KEYS if k not in "\n".join(a).lower()]
    rng.shuffle(fresh)
    news = []
    for (op, anchor), i in zip(ops, pos):
        sec = next(x for x in reversed(a[:i]) if x[:1] in ("[", "#")).strip("[]# ")
        news.append(_bump(rng, anchor) if op == "replace" else
                    _setting(style, sec, fresh.pop(), rng.randint(2, 99)) if op == "insert" else None)

    def apply(lines):
        out = list(lines)
        for (op, anchor), line in zip(ops, news):
            i = out.index(anchor)
            if op == "replace":
                out[i] = line
            elif op == "insert":
                out.insert(i + 1, line)
            else:
                del out[i]
        return out

    b = apply(a)
    body = _diff(a, b, f"a/{rel}", f"b/{rel}")
    drift = rng.choice(["edit_neighbour", "comment_above"])
    c = ["# local changes: see CHANGELOG" if style != "conf" else "; local changes: see CHANGELOG"] + list(a)
    t = c.index(ops[bad][1])
    if drift == "edit_neighbour":
        j = t + rng.choice([-1, 1])
        c[j] = _bump(rng, c[j])
    else:
        c.insert(t, ("; " if style == "conf" else "# ") + "tuned for the staging host")
    want = apply(c)
    patchfile = f"/app/patches/{rng.choice(['upstream', 'backport', 'tuning'])}-{rng.randint(10, 99)}.patch"
    other = {"README.txt": f"{proj}: settings live in {rel}\n"}
    files = {f"environment/files/{proj}/{rel}": (_text(c), False),
             f"environment/files/{proj}/README.txt": (other["README.txt"], False),
             f"environment/files/{patchfile[5:]}": (body, False),
             "environment/Dockerfile": (DOCKERFILE, False),
             "solution/solve.sh": (d(f"""
                 #!/bin/bash
                 set -e
                 cd /app/{proj}
                 patch -p1 -i {patchfile} || echo "one hunk was rejected: it is applied by hand below"
                 rm -f {rel}.rej {rel}.orig
                 python3 - <<'EOF'
                 p = "/app/{proj}/{rel}"
                 lines = open(p).read().split("\\n")
                 lines[lines.index({ops[bad][1]!r})] = {news[bad]!r}
                 open(p, "w").write("\\n".join(lines))
                 EOF
                 """), True),
             "tests/check.py": (check_py(d(f"""
                 got = read("/app/{proj}/{rel}")
                 want = {_text(want)!r}
                 if got != want:
                     bad = [i + 1 for i, (x, y) in enumerate(zip(got.splitlines(), want.splitlines())) if x != y]
                     fail(f"/app/{proj}/{rel} is not right (first differing line: {{bad[:1] or 'length'}})")
                 """) + _unchanged({patchfile: body, f"/app/{proj}/README.txt": other["README.txt"]}) + NO_LEFTOVERS),
                 False)}
    instruction = (f"Apply the patch `{patchfile}` to the project in `/app/{proj}/`. `{rel}` was edited locally "
                   f"after the patch was made: keep those local edits, and make sure every change of the patch ends "
                   f"up in the file (the lines it removes replaced by the lines it adds). Do not edit the patch, and "
                   f"leave no .rej or .orig files behind.\n")
    return instruction, files, {"category": "patch_conflict", "defect": f"{drift}_{style}"}


FAMILIES = [
    Family("patch-strip-level", patch_strip_level, kind="patches"),
    Family("make-patch", make_patch, kind="patches"),
    Family("patch-reject", patch_reject, kind="patches"),
]
