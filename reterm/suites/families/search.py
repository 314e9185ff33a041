"""Families of kind "file-search": finding files by name, size or content and cleaning up, where the obvious
`find | xargs` pipeline or a rounded `-size` test quietly does too much or too little."""

from __future__ import annotations

import hashlib
import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d

EXTS = [".csv", ".json", ".md", ".log", ".yaml"]


def _tree_check(root: str, want: dict) -> str:
    """check.py lines: the regular files under `root` are exactly `want` (relative path -> sha256 of the bytes)."""
    return d(f"""
        got = {{}}
        for r, dirs, fs in os.walk({root!r}):
            for f in fs:
                p = os.path.join(r, f)
                if os.path.isfile(p) and not os.path.islink(p):
                    got[os.path.relpath(p, {root!r})] = hashlib.sha256(open(p, "rb").read()).hexdigest()
        want = {want!r}
        if sorted(got) != sorted(want):
            fail(f"files under {root}: missing {{sorted(set(want) - set(got))}}, "
                 f"unexpected {{sorted(set(got) - set(want))}}")
        for k in want:
            if got[k] != want[k]:
                fail(f"{root}/{{k}} does not have its original content")
        """)


def _h(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def names_with_spaces(rng: random.Random):
    root = rng.choice(["/app/inbox", "/app/shared", "/app/exports"])
    ext = rng.choice(EXTS)
    defect = rng.choice(["spaces", "quote", "newline"])
    words = rng.sample(WORDS, 12)
    dirs = ["", words[0], f"{words[1]} {rng.choice(['reports', 'backup', 'Q3'])}", f"{words[0]}/{words[2]}"]
    wanted = [f"{words[3]} {words[4]}{ext}", f"{words[5]}{ext}", f"final {words[6]} v{rng.randint(2, 9)}{ext}"]
    wanted.append({"spaces": f"{words[7]}  {words[8]}{ext}", "quote": f"{words[7]}'s {words[8]}{ext}",
                   "newline": f"{words[7]}\n{words[8]}{ext}"}[defect])
    wanted += [f"{w}{ext}" for w in words[9:9 + rng.randint(0, 2)]]
    others = [f"{words[3]} {words[4]}{ext}.bak", f"{words[5]}.txt", f"notes {words[10]}.txt", f"{words[11]}{ext}.old"]
    tree = {}
    for n in wanted + others:
        tree[f"{rng.choice(dirs)}/{n}".lstrip("/")] = f"{n.replace(chr(10), ' ')} {rng.randint(1, 10**6)}\n"
    tree[f"old{ext}/README.txt"] = "not a data file\n"  # a directory whose name matches the pattern
    special = [p for p in tree if "\n" in p]
    files = {f"environment/files/{root[5:]}/{p.replace(chr(10), '_')}": (c, False) for p, c in tree.items()}
    dockerfile = DOCKERFILE + "".join(
        f"RUN mv '{root}/{p.replace(chr(10), '_')}' \"$(printf '{root}/{p.replace(chr(10), '%b')}' '\\n')\"\n"
        for p in special)
    collected = {n: _h(tree[p]) for p in tree for n in [p.rsplit("/", 1)[-1]] if n.endswith(ext)}
    files.update({
        "environment/Dockerfile": (dockerfile, False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\nmkdir -p /app/collected\n"
                              f"find {root} -type f -name '*{ext}' -exec cp -t /app/collected {{}} +\n", True),
        "tests/check.py": (check_py(_tree_check("/app/collected", collected) + _tree_check(
            root, {p: _h(c) for p, c in tree.items()})), False),
    })
    instruction = (f"Copy every file under `{root}` (at any depth) whose name ends in `{ext}` into `/app/collected/`, "
                   f"flat (just the files, under their own names; no sub-directories). Leave `{root}` as it is.\n")
    return instruction, files, {"category": "quoting", "defect": defect}


SETUP = d('''
    import os, sys

    def content(name, size):
        unit = f"{name} " * 3 + "\\n"
        return (unit * (size // len(unit) + 1))[:size]

    for path, size in FILES:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(content(os.path.basename(path), size))
    ''')


def _content(name: str, size: int) -> str:  # as SETUP's content()
    unit = f"{name} " * 3 + "\n"
    return (unit * (size // len(unit) + 1))[:size]


def find_large_files(rng: random.Random):
    root = rng.choice(["/app/storage", "/app/cache", "/app/uploads"])
    defect = rng.choice(["size_ext", "pattern_keep"])
    words = rng.sample(WORDS, 14)
    dirs = words[:3] + [f"{words[0]}/{words[3]}", f"{words[1]} old"]
    sizes, gone, keep = {}, set(), []
    if defect == "size_ext":
        ext, limit = rng.choice([".log", ".dump", ".bin"]), rng.choice([20, 30, 40, 50]) * 1000
        plan = [(f"{words[4]}{ext}", limit + rng.randint(3000, 9000), 1), (f"big {words[5]}{ext}", limit * 2, 1),
                (f"{words[6]}{ext}", limit + rng.randint(1, 1024 * limit // 1000 - limit), 1),  # under -size +Nk
                (f"{words[7]}{ext}", limit, 0), (f"{words[8]}{ext}", rng.randint(100, limit // 2), 0),
                (f"{words[9]}.txt", limit * 3, 0), (f"{words[10]}{ext}.gz", limit + 5000, 0),
                (f"{words[11]}{ext}", limit + rng.randint(10, 2000), 1)]
        what = f"whose name ends in `{ext}` and whose size is more than {limit} bytes"
        solve = f"find {root} -type f -name '*{ext}' -size +{limit}c -delete"
    else:
        ext = rng.choice([".tmp", ".swp", ".part"])
        plan = [(f"{w}{ext}", rng.randint(50, 4000), 1) for w in words[4:8]]
        plan += [(f"{words[8]} copy{ext}", rng.randint(50, 4000), 0), (f".{words[9]}{ext}", 300, 1),
                 (f"{words[10]}{ext}", 500, 0), (f"{words[11]}.txt", 700, 0), (f"{words[12]}{ext}.keep", 90, 0)]
        what = f"whose name ends in `{ext}`, except the files listed in `{root}/KEEP` (paths relative to `{root}`)"
        solve = (f"cd {root} && find . -type f -name '*{ext}' -printf '%P\\n' | grep -vxF -f KEEP "
                 f"| while IFS= read -r f; do rm -f -- \"$f\"; done")
    for name, size, delete in plan:
        path = f"{rng.choice(dirs)}/{name}"
        sizes[path] = size
        if delete:
            gone.add(path)
        else:
            keep.append(path)
    sizes[f"{words[13]}{ext}/data.txt"] = 1234  # a directory whose name matches the pattern
    files = {"environment/setup.py": (f"FILES = {[(f'{root}/{p}', s) for p, s in sorted(sizes.items())]!r}\n" + SETUP,
                                      False)}
    remaining = {p: _h(_content(p.rsplit("/", 1)[-1], s)) for p, s in sizes.items() if p not in gone}
    readme = f"Scratch space of the {words[0]} jobs; clean it up now and then.\n"
    files[f"environment/files/{root[5:]}/README.txt"] = (readme, False)
    remaining["README.txt"] = _h(readme)
    if defect == "pattern_keep":
        listed = sorted(p for p in keep if p.endswith(ext))
        files[f"environment/files/{root[5:]}/KEEP"] = ("\n".join(listed) + "\n", False)
        remaining["KEEP"] = _h("\n".join(listed) + "\n")
    files.update({
        "environment/Dockerfile": (DOCKERFILE + "COPY setup.py /tmp/setup.py\nRUN python3 /tmp/setup.py && "
                                                "rm /tmp/setup.py\n", False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\n{solve}\n", True),
        "tests/check.py": (check_py(_tree_check(root, remaining) + d(f"""
            for p in {sorted({p.rsplit('/', 1)[0] for p in sizes})!r}:
                if not os.path.isdir(os.path.join({root!r}, p)):
                    fail(f"directory {root}/{{p}} was removed")
            """)), False),
    })
    instruction = (f"Clean up `{root}`: delete every regular file below it (at any depth) {what}. Keep every other "
                   f"file and every directory exactly as it is.\n")
    return instruction, files, {"category": "wrong_tool_usage", "defect": defect}


def find_by_content(rng: random.Random):
    root = rng.choice(["/app/src", "/app/project", "/app/repo"])
    w = rng.sample(WORDS, 12)
    token = rng.choice(["LEGACY_", "OLD_", "DEPRECATED_"]) + w[0].upper() + rng.choice(["_URL", "_HOST", "_KEY"])
    decoys = [token + "_V2", "MY_" + token, token.lower(), token.replace("_", "-"), token + "S"]
    uses = [f'url = os.environ["{token}"]\n', f"export {token}=https://{w[1]}.example\n", f"  - ${{{token}}}\n",
            f"# TODO: drop {token} after the move\n", f"{token}={rng.randint(1, 999)}\n"]
    hits = [f"{w[2]}/settings.py", f".config/{w[3]}.env", f"deploy/{w[4]}.tpl", f"scripts/run_{w[5]}",
            f".github/workflows/{w[6]}.yml", f"docs/{w[7]}.md", f"{w[8]}/.{w[9]}rc"]
    hits = rng.sample(hits, rng.randint(3, 5))
    misses = [f"{w[2]}/{w[10]}.py", f"deploy/{w[11]}.tpl", f"docs/{w[1]}.md", f".config/{w[5]}.env",
              f"{w[8]}/notes.txt", f"scripts/{w[3]}.sh", f".cache/{w[4]}.json"]
    tree = {}
    for p in misses:
        tree[p] = f"# {p}\n" + "".join(f"value = {rng.choice(decoys)}\n" for _ in range(rng.randint(0, 2)))
    for p in hits:
        body = [f"# {p}\n", rng.choice(uses)] + [f"other = {rng.choice(decoys)}\n"] * rng.randint(0, 1)
        rng.shuffle(body)
        tree[p] = "".join(body)
    want = "".join(p + "\n" for p in sorted(f"{root}/{h}" for h in hits))
    files = {f"environment/files/{root[5:]}/{p}": (c, False) for p, c in tree.items()}
    files.update({
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\ngrep -rlw -- '{token}' {root} | LC_ALL=C sort "
                              f"> /app/matches.txt\n", True),
        "tests/check.py": (check_py(d(f"""
            got = read("/app/matches.txt")
            if got != {want!r}:
                fail(f"matches.txt is {{got!r}}, expected {len(hits)} paths")
            """) + _tree_check(root, {p: _h(c) for p, c in tree.items()})), False),
    })
    instruction = (f"Find every file under `{root}` that contains the identifier `{token}` (exactly: case-sensitive, "
                   f"and not as part of a longer identifier such as `{token}_V2`). Write their absolute paths to "
                   f"`/app/matches.txt`, one per line, in byte order (`LC_ALL=C sort`). Change no file under "
                   f"`{root}`.\n")
    return instruction, files, {"category": "incomplete_search"}


FAMILIES = [
    Family("names-with-spaces", names_with_spaces, kind="file-search"),
    Family("find-large-files", find_large_files, kind="file-search"),
    Family("find-by-content", find_by_content, kind="file-search"),
]
