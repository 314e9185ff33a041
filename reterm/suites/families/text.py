"""Families of kind "text": text and log processing with grep, sed, awk, sort and uniq (see
reterm/suites/families/__init__.py)."""

from __future__ import annotations

import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha

LOG_USERS = ["alice", "bruno", "chen", "dara", "emeka", "farah", "goran", "hana", "ivo", "jun", "kofi", "lena"]
ENDPOINTS = ["orders", "users", "cart", "search", "login", "health", "reports", "items", "billing", "export"]


def log_fields(rng: random.Random):
    # The columns are named by a header line, but a time with a space in it (or a `|`/tab separator) means awk's
    # default whitespace split puts every column one or more places off: the report comes out visibly wrong.
    fmt = rng.choice(["pipe", "tab", "space"])
    key = rng.choice(["user", "path"])
    metric = rng.choice(["bytes", "requests", "errors"])
    cols = ["user", "method", "path", "status", "bytes"]
    rng.shuffle(cols)
    cols = ["time"] + cols
    users = rng.sample(LOG_USERS, rng.randint(3, 5))
    paths = ["/api/" + e for e in rng.sample(ENDPOINTS, rng.randint(3, 5))]
    sep = {"pipe": " | ", "tab": "\t", "space": " "}[fmt]
    name = rng.choice(WORDS) + "-" + rng.choice(["access", "gateway", "proxy"])
    day = rng.randint(1, 28)
    lines, agg = [sep.join(cols)], {}
    for i in range(rng.randint(30, 60)):
        clock = f"{8 + i // 6:02d}:{i % 6 * 10 + rng.randint(0, 9):02d}:{rng.randint(0, 59):02d}"
        rec = {"time": f"2024-03-{day:02d} {clock}",
               "user": rng.choice(users), "method": rng.choice(["GET", "GET", "POST", "PUT"]),
               "path": rng.choice(paths), "status": rng.choice([200, 200, 200, 201, 204, 304, 400, 404, 500, 503]),
               "bytes": rng.randint(0, 9000)}
        lines.append(sep.join(str(rec[c]) for c in cols))
        if metric != "errors" or rec["status"] >= 400:
            agg[rec[key]] = agg.get(rec[key], 0) + (rec["bytes"] if metric == "bytes" else 1)
    log = "\n".join(lines) + "\n"
    want = "".join(f"{k} {v}\n" for k, v in sorted(agg.items()))
    col = {c: cols.index(c) + (2 if fmt == "space" else 1) for c in cols}  # split on spaces, the time is 2 fields
    fs = {"pipe": "-F' [|] ' ", "tab": "-F'\\t' ", "space": ""}[fmt]
    prog = {"bytes": f"NR > 1 {{s[${col[key]}] += ${col['bytes']}}}", "requests": f"NR > 1 {{s[${col[key]}]++}}",
            "errors": f"NR > 1 && ${col['status']} >= 400 {{s[${col[key]}]++}}"}[metric]
    what = {"bytes": "the total of the `bytes` column over its requests",
            "requests": "the number of its requests",
            "errors": f"the number of its requests whose `status` is 400 or more ({key}s with none are left "
                      f"out)"}[metric]
    files = {
        f"environment/files/logs/{name}.log": (log, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            awk {fs}'{prog} END {{for (k in s) print k, s[k]}}' /app/logs/{name}.log | LC_ALL=C sort > /app/report.txt
            """), True),
        "tests/check.py": (check_py(f"""
            got = read("/app/report.txt")
            want = {want!r}
            if got.rstrip("\\n") != want.rstrip("\\n"):
                fail(f"report.txt is {{got!r}}, expected {{want!r}}")
            if hashlib.sha256(read("/app/logs/{name}.log").encode()).hexdigest() != "{sha(log)}":
                fail("the log was modified")
            """), False),
    }
    instruction = (f"`/app/logs/{name}.log` is an access log whose first line names its columns. Write "
                   f"`/app/report.txt` with one line per {key}: the {key}, one space, then {what}; lines sorted by "
                   f"{key} (plain byte order), no header, no other text. Do not modify the log.\n")
    return instruction, files, {"category": "field_separator", "defect": fmt}


ITEM_POOLS = [
    ("host name", [f"{w}.example.org" for w in WORDS]),
    ("tag", WORDS),
    ("package", ["openssl", "zlib", "curl", "libxml2", "sqlite", "ncurses", "readline", "expat", "libffi", "bzip2"]),
    ("user name", LOG_USERS),
]


def count_unique(rng: random.Random):
    # `uniq -c` only merges adjacent lines: on this unsorted input it counts runs, not items; and the items also
    # differ in case, surrounding whitespace, or are interleaved with comments and blank lines.
    defect = rng.choice(["case", "whitespace", "comments"])
    what, pool = rng.choice(ITEM_POOLS)
    items = rng.sample(pool, rng.randint(5, 8))
    counts = dict(zip(items, rng.sample(range(1, 26), len(items))))  # distinct counts: the order is unambiguous
    lines = []
    for item, c in counts.items():
        for _ in range(c):
            if defect == "case":
                item_s = rng.choice([item, item, item.upper(), item.capitalize()])
            elif defect == "whitespace":
                item_s = rng.choice(["", "", "", " ", "  ", "\t"]) + item + rng.choice(["", "", " ", "  ", "\t"])
            else:
                item_s = item
            lines.append(item_s)
    rng.shuffle(lines)
    if defect == "comments":
        for i in range(rng.randint(4, 8)):
            lines.insert(rng.randrange(len(lines) + 1), rng.choice(["", f"# batch {i + 1} imported", ""]))
    parts = rng.sample(["mon", "tue", "wed", "thu", "fri", "sat"], rng.randint(1, 3))
    cut = sorted(rng.sample(range(1, len(lines)), len(parts) - 1))
    chunks = [lines[a:b] for a, b in zip([0] + cut, cut + [len(lines)])]
    want = "".join(f"{c} {item}\n" for item, c in sorted(counts.items(), key=lambda kv: -kv[1]))
    data = {f"/app/data/{p}.txt": "\n".join(ch) + "\n" for p, ch in zip(parts, chunks)}
    files = {"environment/files" + p[4:]: (t, False) for p, t in data.items()}
    files.update({
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d("""
            #!/bin/bash
            set -e
            cat /app/data/*.txt | grep -v '^[[:space:]]*#' | tr 'A-Z' 'a-z' \\
                | sed 's/^[[:space:]]*//; s/[[:space:]]*$//' | grep -v '^$' \\
                | sort | uniq -c | sort -k1,1nr | awk '{print $1, $2}' > /app/counts.txt
            """), True),
        "tests/check.py": (check_py(f"""
            got = read("/app/counts.txt")
            want = {want!r}
            if got.rstrip("\\n") != want.rstrip("\\n"):
                fail(f"counts.txt is {{got!r}}, expected {{want!r}}")
            for name, h in {({p: sha(t) for p, t in data.items()})!r}.items():
                if hashlib.sha256(read(name).encode()).hexdigest() != h:
                    fail(f"{{name}} was modified")
            """), False),
    })
    instruction = (f"The files in `/app/data/` list one {what} per line. Count how often each distinct {what} occurs "
                   f"across all of them (compare them ignoring letter case and surrounding whitespace, write them in "
                   f"lowercase; blank lines and lines starting with `#` are not entries) and write `/app/counts.txt`: "
                   f"one line per {what}, `<count> <{what.replace(' ', '_')}>` with no leading spaces, most frequent "
                   f"first. Leave the data files unchanged.\n")
    return instruction, files, {"category": "unsorted_input", "defect": defect}


def sed_paths(rng: random.Random):
    # Every old/new text holds slashes, so `sed 's/old/new/'` stops at "unknown option to `s'"; the defect is what
    # a sed with another delimiter still gets wrong: `.` matching other hosts, `&` in the replacement, or `*`/`[..]`
    # that make the pattern miss its own text.
    defect = rng.choice(["dots", "ampersand", "star", "ipv6"])
    w, w2 = rng.sample(WORDS, 2)
    svc = rng.choice(["db", "cache", "files", "auth", "queue", "search"])
    port = rng.randint(2000, 9999)
    others = [f"http://{svc}.{w}.lan:{port + 1}", f"/var/lib/{svc}/{w2}"]  # near misses that must stay
    suffixes, decoy = [""], f"http://{svc}.{w}.lan:{port + 2}/v1"
    if defect == "dots":
        old, new = f"http://{svc}.{w}.lan:{port}", f"http://{svc}.{w2}.internal:{port}"
        decoy = f"http://{svc}-{w}.lan:{port}"  # another host that `.` in a regex also matches
        suffixes += ["/health", f"/{w2}"]
    elif defect == "ampersand":
        old = f"https://{svc}.{w}.lan/v1/export?format=csv"
        new = f"https://{svc}.{w}.lan/v2/export?format=json&limit={rng.choice([100, 250, 500, 1000])}"
    elif defect == "star":
        old, new = f"/etc/{w}/{svc}.d/*.conf", f"/srv/{w2}/{svc}.d/*.conf"
        decoy = f"/etc/{w}/{svc}.d/00-base.conf"
    else:
        a, b = rng.sample(range(2, 250), 2)
        old, new = f"http://[fd00::{a:x}]:{port}", f"http://[fd00::{b:x}]:{port}"
        decoy = f"http://[fd00::{a:x}{rng.randint(1, 9)}]:{port}"
        suffixes += ["/status", "/v1"]
    keys = ["endpoint", "upstream", "backup", "mirror", "include", "fallback", "target", "source", "primary", "peer"]
    rng.shuffle(keys)
    names = rng.sample(["app", "worker", "gateway", "scheduler", "api", "sync"], rng.randint(2, 3))
    before, after, k, spot = {}, {}, 0, rng.randrange(len(names))
    for i, n in enumerate(names):
        lines = [f"# {n} settings", f"name = {n}-{w}", f"threads = {rng.randint(1, 16)}"]
        vals = [old + rng.choice(suffixes) for _ in range(rng.randint(1 if i == 0 else 0, 2))]
        vals += rng.sample(others, rng.randint(1 if i == 0 else 0, 2)) + [decoy] * (i == spot)
        rng.shuffle(vals)
        for v in vals:
            lines.insert(rng.randint(1, len(lines)), f"{keys[k % len(keys)]} = {v}")
            k += 1
        text = "\n".join(lines) + "\n"
        before[f"/app/conf/{n}.conf"] = text
        after[f"/app/conf/{n}.conf"] = text.replace(old, new)
    notes = rng.choice(["NOTES.txt", "README", "app.conf.bak"])
    keep = f"Before the move the {svc} service lived at {old}\nSee the .conf files for the current settings.\n"
    before[f"/app/conf/{notes}"] = after[f"/app/conf/{notes}"] = keep
    files = {"environment/files" + p[4:]: (t, False) for p, t in before.items()}
    files.update({
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            python3 - <<'EOF'
            import glob
            for p in glob.glob("/app/conf/*.conf"):
                with open(p) as f:
                    text = f.read()
                with open(p, "w") as f:
                    f.write(text.replace({old!r}, {new!r}))
            EOF
            """), True),
        "tests/check.py": (check_py(f"""
            for path, want in {after!r}.items():
                got = read(path)
                if got != want:
                    fail(f"{{path}} is {{got!r}}, expected {{want!r}}")
            """), False),
    })
    instruction = (f"The {svc} service moved. In every `.conf` file in `/app/conf/`, replace each occurrence of the "
                   f"exact text `{old}` with `{new}`, editing the files in place. Change nothing else: other text "
                   f"and the other files there must stay byte-for-byte the same.\n")
    return instruction, files, {"category": "regex_escaping", "defect": defect}


FAMILIES = [
    Family("log-fields", log_fields, kind="text"),
    Family("count-unique", count_unique, kind="text"),
    Family("sed-paths", sed_paths, kind="text"),
]
