"""Families of kind "permissions": modes that stop a tool (see reterm/suites/families/__init__.py).

The agent's shell runs as root on both backends, and root reads and writes whatever the mode bits say (only the execute
bit binds it). So the given tools check the modes themselves, as ssh or a service run under its own account would:
each one says so in a comment, and fails with the error that account would meet."""

from __future__ import annotations

import hashlib
import hmac
import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha

GROUPS = ["north", "south", "east", "west", "central", "coast", "harbor", "valley"]
# Honour the mode bits as the job's unprivileged account would, even when run as root (shared by the tools below).
GUARD = d("""
    def denied(path):
        return PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
    """)


def _modes_check(paths_modes: dict) -> str:
    return (f"for path, want in {paths_modes!r}.items():\n"
            f"    if not os.path.exists(path):\n        fail(f\"{{path}} is missing\")\n"
            f"    got = os.stat(path).st_mode & 0o7777\n"
            f"    if got != want:\n        fail(f\"{{path}} has mode {{got:04o}}, expected {{want:04o}}\")\n")


def dir_search_bit(rng: random.Random):
    top = rng.choice(["inbox", "drop", "incoming", "spool", "shared"])
    groups = rng.sample(GROUPS, rng.randint(3, 4))
    data = {f"{g}/{w}.txt": " ".join(str(rng.randint(1, 99)) for _ in range(rng.randint(2, 5))) + "\n"
            for g in groups for w in rng.sample(WORDS, rng.randint(1, 3))}
    defect = rng.choice(["one_dir", "two_dirs", "top_dir"])
    bad = {"one_dir": rng.sample(groups, 1), "two_dirs": rng.sample(groups, 2), "top_dir": [""]}[defect]
    out, tool = f"/app/{rng.choice(['tally', 'totals', 'report'])}.txt", rng.choice(["tally", "collect", "sumup"])
    script = d(f"""
        #!/usr/bin/env python3
        \"\"\"Totals the numbers in the files of each directory under /app/{top} into {out}.\"\"\"
        import errno
        import os
        import stat

        ROOT = "/app/{top}"


        # The nightly job runs as the files' unprivileged owner: honour the modes it would meet, even as root.
        """) + GUARD + "\n\n" + d(f"""


        def allowed(path, bit):
            parent = os.path.dirname(path)
            while parent.startswith(ROOT):  # every directory on the way needs its search (x) bit
                if not os.stat(parent).st_mode & stat.S_IXUSR:
                    raise denied(path)
                parent = os.path.dirname(parent)
            if not os.stat(path).st_mode & bit:
                raise denied(path)


        totals = {{}}
        allowed(ROOT, stat.S_IRUSR)
        for group in sorted(os.listdir(ROOT)):
            allowed(os.path.join(ROOT, group), stat.S_IRUSR)
            for name in sorted(os.listdir(os.path.join(ROOT, group))):
                path = os.path.join(ROOT, group, name)
                allowed(path, stat.S_IRUSR)
                with open(path) as f:
                    totals[group] = totals.get(group, 0) + sum(int(x) for x in f.read().split())
        with open("{out}", "w") as f:
            f.writelines(f"{{g}} {{totals[g]}}\\n" for g in sorted(totals))
        """)
    sums = {}
    for p, c in data.items():
        sums[p.split("/")[0]] = sums.get(p.split("/")[0], 0) + sum(map(int, c.split()))
    want = "".join(f"{g} {sums[g]}\n" for g in sorted(sums))
    chmods = " && ".join(f"chmod {rng.choice(['644', '600', '666', '640', '604'])} /app/{top}/{g}".rstrip("/")
                         for g in bad)
    modes = {f"/app/{top}": 0o755, **{f"/app/{top}/{g}": 0o755 for g in groups},
             **{f"/app/{top}/{p}": 0o644 for p in data}}
    files = {f"environment/files/{top}/{p}": (c, False) for p, c in data.items()}
    files.update({
        f"environment/files/bin/{tool}.py": (script, False),
        "environment/Dockerfile": (DOCKERFILE + f"RUN find /app/{top} -type d -exec chmod 755 {{}} + && find /app/{top} "
                                   f"-type f -exec chmod 644 {{}} + && {chmods}\n", False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\nchmod 755 /app/{top} {' '.join(f'/app/{top}/{g}' for g in groups)}"
                              f"\npython3 /app/bin/{tool}.py\n", True),
        "tests/check.py": (check_py(f"""
            got = read("{out}")
            if got != {want!r}:
                fail(f"{out} is {{got!r}}, expected {want!r}")
            for path, digest in {({f"/app/{top}/{p}": sha(c) for p, c in data.items()} | {f"/app/bin/{tool}.py": sha(script)})!r}.items():
                if hashlib.sha256(read(path).encode()).hexdigest() != digest:
                    fail(f"{{path}} was modified")
            """) + _modes_check(modes), False),
    })
    instruction = (f"Run `python3 /app/bin/{tool}.py`: it totals the files under `/app/{top}` into `{out}`, but fails. "
                   f"Fix what stops it without editing the tool or the data files: afterwards every directory under "
                   f"`/app/{top}` (and `/app/{top}` itself) must have mode 0755 and every file mode 0644.\n")
    return instruction, files, {"category": "permission", "defect": defect}


def key_mode(rng: random.Random):
    tool = rng.choice(["sign", "stamp", "attest", "seal"])
    kdir = rng.choice(["/app/keys", "/app/.secrets", "/app/config/keys", "/app/credentials"])
    key = f"{kdir}/{rng.choice(WORDS)}{rng.choice(['.key', '.pem', '_ed25519'])}"
    payload = f"/app/{rng.choice(['release', 'manifest', 'bundle', 'artifact'])}-{rng.randint(1, 99)}.txt"
    secret = "".join(rng.choice("0123456789abcdef") for _ in range(48)) + "\n"
    body = "".join(f"{w} {rng.randint(100, 999)}\n" for w in rng.sample(WORDS, rng.randint(3, 6)))
    defect = rng.choice(["key_mode", "key_mode", "dir_mode"])
    kmode = rng.choice(["644", "640", "604", "664", "666", "755"]) if defect == "key_mode" else "600"
    dmode = rng.choice(["755", "777", "775", "750"]) if defect == "dir_mode" else "700"
    out = payload.replace(".txt", ".sig")
    script = d(f"""
        #!/usr/bin/env python3
        \"\"\"Signs {payload} with the key {key} (HMAC-SHA256) into {out}.\"\"\"
        import hashlib
        import hmac
        import os
        import stat
        import sys

        KEY = "{key}"
        # Like ssh, refuse a key that anyone but its owner could read, or that sits in a directory others can reach.
        dmode = stat.S_IMODE(os.stat(os.path.dirname(KEY)).st_mode)
        if dmode & 0o077:
            sys.exit(f"{tool}: bad permissions {{dmode:04o}} on directory '{kdir}'; it must be 0700")
        kmode = stat.S_IMODE(os.stat(KEY).st_mode)
        if kmode & 0o077:
            sys.exit(f"{tool}: permissions {{kmode:04o}} for '{{KEY}}' are too open; it must be 0600")
        with open(KEY, "rb") as f:
            secret = f.read().strip()
        with open("{payload}", "rb") as f:
            digest = hmac.new(secret, f.read(), hashlib.sha256).hexdigest()
        with open("{out}", "w") as f:
            f.write(f"hmac-sha256 {{digest}}  {payload.rsplit('/', 1)[1]}\\n")
        """)
    want = f"hmac-sha256 {hmac.new(secret.strip().encode(), body.encode(), hashlib.sha256).hexdigest()}  " \
           f"{payload.rsplit('/', 1)[1]}\n"
    app = lambda p: "environment/files/" + p[len("/app/"):]  # noqa: E731
    files = {
        app(key): (secret, False),
        app(payload): (body, False),
        f"environment/files/bin/{tool}.py": (script, False),
        "environment/Dockerfile": (DOCKERFILE + f"RUN chmod {kmode} {key} && chmod {dmode} {kdir}\n", False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\nchmod 700 {kdir}\nchmod 600 {key}\npython3 /app/bin/{tool}.py\n",
                              True),
        "tests/check.py": (check_py(f"""
            if read("{out}") != {want!r}:
                fail("{out} is not the signature {tool}.py makes")
            for path, digest in {({key: sha(secret), payload: sha(body), f"/app/bin/{tool}.py": sha(script)})!r}.items():
                if hashlib.sha256(read(path).encode()).hexdigest() != digest:
                    fail(f"{{path}} was modified")
            """) + _modes_check({key: 0o600, kdir: 0o700}), False),
    }
    instruction = (f"Sign `{payload}` by running `python3 /app/bin/{tool}.py`, which writes `{out}`. Do not edit the "
                   f"tool, the payload or the key `{key}`; the key must end up with mode 0600 and its directory "
                   f"`{kdir}` with mode 0700.\n")
    return instruction, files, {"category": "permission", "defect": defect}


def readonly_output(rng: random.Random):
    ldir = rng.choice(["/app/ledger", "/app/var/log", "/app/records", "/app/journal"])
    batch = f"{rng.choice(['b', 'batch', 'run'])}{rng.randint(10, 99)}"
    rows = [(w, rng.randint(1, 500)) for w in rng.sample(WORDS, rng.randint(3, 6))]
    defect = rng.choice(["file_readonly", "dir_readonly"])
    if defect == "file_readonly":  # append to an existing read-only file
        out, mode, old = f"{ldir}/{rng.choice(['ledger', 'journal', 'entries'])}.log", "a", \
            "".join(f"b{i}: total {rng.randint(100, 2000)}\n" for i in range(rng.randint(2, 4)))
        chmods, fixes = f"chmod {rng.choice(['444', '440', '400', '555'])} {out}", {out: 0o644, ldir: 0o755}
        new = "".join(f"{batch}: {w} {a}\n" for w, a in rows) + f"{batch}: total {sum(a for _, a in rows)}\n"
    else:  # write a new file into a read-only directory
        out, mode, old = f"{ldir}/{batch}.summary", "w", ""
        chmods, fixes = f"chmod {rng.choice(['555', '500', '511', '544'])} {ldir}", {ldir: 0o755}
        new = f"batch {batch}\nitems {len(rows)}\ntotal {sum(a for _, a in rows)}\n"
    marker = f"{batch}: total" if mode == "a" else f"batch {batch}"
    script = d(f"""
        #!/usr/bin/env python3
        \"\"\"Records the batch /app/incoming/{batch}.csv into {out}.\"\"\"
        import csv
        import errno
        import os
        import stat
        import sys

        OUT = "{out}"


        # In production this job runs as the unprivileged owner of {ldir}: refuse what it could not write, even as root.
        """) + GUARD + "\n\n" + d(f"""


        if os.path.exists(OUT) and "{marker}" in open(OUT).read():
            sys.exit("{batch} is already recorded in {out}")
        with open("/app/incoming/{batch}.csv") as f:
            rows = [(r["item"], int(r["amount"])) for r in csv.DictReader(f)]
        target = OUT if os.path.exists(OUT) else os.path.dirname(OUT)
        if not os.stat(target).st_mode & stat.S_IWUSR:
            raise denied(OUT)
        with open(OUT, "{mode}") as f:
        """)
    script += ('    for item, amount in rows:\n        f.write(f"{batch}: {item} {amount}\\n")\n'
               '    f.write(f"{batch}: total {sum(a for _, a in rows)}\\n")\n' if mode == "a" else
               '    f.write(f"batch {batch}\\nitems {len(rows)}\\ntotal {sum(a for _, a in rows)}\\n")\n').replace(
        "{batch}", batch)
    csv_text = "item,amount\n" + "".join(f"{w},{a}\n" for w, a in rows)
    files = {
        f"environment/files/incoming/{batch}.csv": (csv_text, False),
        "environment/files/bin/record.py": (script, False),
        "environment/Dockerfile": (DOCKERFILE + f"RUN mkdir -p {ldir} && chmod 755 {ldir} && {chmods}\n", False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\n" + "".join(f"chmod {m:o} {p}\n" for p, m in fixes.items())
                              + "python3 /app/bin/record.py\n", True),
        "tests/check.py": (check_py(f"""
            got = read("{out}")
            if got != {old + new!r}:
                fail(f"{out} is {{got!r}}, expected {old + new!r}")
            for path, digest in {({f"/app/incoming/{batch}.csv": sha(csv_text), "/app/bin/record.py": sha(script)})!r}.items():
                if hashlib.sha256(read(path).encode()).hexdigest() != digest:
                    fail(f"{{path}} was modified")
            """) + _modes_check(fixes), False),
    }
    if old:
        files[f"environment/files/{out[len('/app/'):]}"] = (old, False)
    modes = " and ".join(f"`{p}` mode {m:04o}" for p, m in fixes.items())
    instruction = (f"Run `python3 /app/bin/record.py` to record the batch `/app/incoming/{batch}.csv` into `{out}`. "
                   f"It fails: fix what stops it without editing the script or the batch, leaving {modes}.\n")
    return instruction, files, {"category": "permission", "defect": defect}


FAMILIES = [
    Family("dir-search-bit", dir_search_bit, kind="permissions"),
    Family("key-mode", key_mode, kind="permissions"),
    Family("readonly-output", readonly_output, kind="permissions"),
]
