"""Compositional families (held out): each needs the skills of two training families, one after the other; the
second mistake only shows once the first is fixed (see reterm/suites/families/__init__.py)."""

from __future__ import annotations

import csv
import hashlib
import hmac
import io
import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha, write_file_solution


def _unchanged(paths: dict) -> str:
    """check.py lines: each path's content still hashes to what the generator wrote."""
    return "".join(f'if hashlib.sha256(read("{p}").encode()).hexdigest() != "{sha(c)}":\n'
                   f'    fail("{p} was modified")\n' for p, c in paths.items())


def log_then_exec(rng: random.Random):
    svc = rng.choice(WORDS) + "-" + rng.choice(["api", "worker", "gateway", "sync"])
    tool = rng.choice(["promote", "publish", "rollout", "activate"])
    year, month = rng.choice([2022, 2023, 2024]), rng.randint(1, 12)
    where = rng.choice([f"data/archive/{year}/{month:02d}", f"data/hosts/{rng.choice(WORDS)}/logs",
                        f"data/old/{year}-{month:02d}/{svc}"])
    want = rng.choice(["last_ok", "failed"])
    rid = lambda: "r" + "".join(rng.choice("0123456789abcdef") for _ in range(6))  # noqa: E731

    def log(n):  # n deploys, the last one ok, exactly one failed before it
        ids, fail_at, lines = [rid() for _ in range(n)], rng.randint(0, n - 2), []
        for i, r in enumerate(ids):
            lines.append(f"2024-{month:02d}-{i + 1:02d} 10:{i:02d}:00 INFO deploy release={r} "
                         f"status={'failed' if i == fail_at else 'ok'}")
            lines.append(f"2024-{month:02d}-{i + 1:02d} 10:{i:02d}:30 INFO health check passed")
        return "\n".join(lines) + "\n", ids[fail_at] if want == "failed" else ids[-1]

    text, value = log(rng.randint(4, 9))
    decoy, _ = log(rng.randint(3, 5))
    salt = rng.randint(1000, 9999)
    script = d(f"""
        #!/bin/bash
        # {tool} RELEASE: records RELEASE of {svc} in /app/state/{tool}.txt
        set -e
        case "$1" in
          r[0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]) ;;
          *) echo "usage: {tool} RELEASE   (a release id such as r1a2b3c)" >&2; exit 2 ;;
        esac
        mkdir -p /app/state
        echo "{svc} {tool} $1 $(printf '%s' "$1:{salt}" | sha256sum | cut -c1-16)" > /app/state/{tool}.txt
        """)
    digest = hashlib.sha256(f"{value}:{salt}".encode()).hexdigest()[:16]
    what = {"last_ok": "the most recent deploy whose status is ok",
            "failed": "the deploy whose status is failed"}[want]
    files = {
        f"environment/files/{where}/{svc}.log": (text, False),
        f"environment/files/data/{svc}.log.1": (decoy, False),
        f"environment/files/bin/{tool}": (script, False),
        "environment/Dockerfile": (DOCKERFILE + f"RUN chmod 644 /app/bin/{tool}\n", False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            log=$(find /app/data -name '{svc}.log' -type f | head -n 1)
            id=$(grep ' deploy ' "$log" | grep '{'status=failed' if want == 'failed' else 'status=ok'}' | tail -n 1 \\
                 | sed 's/.*release=\\([^ ]*\\).*/\\1/')
            chmod +x /app/bin/{tool}
            /app/bin/{tool} "$id"
            """), True),
        "tests/check.py": (check_py(d(f"""
            got = read("/app/state/{tool}.txt").strip()
            if got != "{svc} {tool} {value} {digest}":
                fail(f"/app/state/{tool}.txt is {{got!r}}: not the right release")
            if not os.access("/app/bin/{tool}", os.X_OK):
                fail("/app/bin/{tool} is still not executable")
            """) + _unchanged({f"/app/bin/{tool}": script})), False),
    }
    instruction = (f"The current log of the service `{svc}` (`{svc}.log`) is somewhere under `/app/data`. Take the "
                   f"release id of {what} in it and record it by running `/app/bin/{tool} RELEASE`, which writes "
                   f"`/app/state/{tool}.txt`. Do not change what `/app/bin/{tool}` contains, and leave it runnable "
                   f"as `/app/bin/{tool}`.\n")
    return instruction, files, {"category": "wrong_path", "defect": want}


def import_then_crash(rng: random.Random):
    mod = rng.choice(["rowtools", "parsing", "fieldkit", "readings", "records"]) + str(rng.randint(1, 9))
    col = rng.choice(["sensor", "station", "meter", "device"])
    defect = rng.choice(["non_numeric", "missing_value"])
    factor = rng.randint(2, 9)
    names = rng.sample(WORDS, 4)
    rows, totals = [f"{col},value"], {}
    for i in range(rng.randint(14, 24)):
        n = rng.choice(names)
        if i % 6 == 2:  # a malformed row
            rows.append(f"{n},{rng.choice(['n/a', 'ERR', '-', '?', 'null'])}" if defect == "non_numeric" else n)
            continue
        v = rng.randint(1, 90)
        totals[n] = totals.get(n, 0) + v * factor
        rows.append(f"{n},{v}")
    data = "\n".join(rows) + "\n"
    lib = d(f"""
        \"\"\"Row parsing shared by the reports.\"\"\"
        CALIBRATION = {factor}


        def parse_row(row):
            \"\"\"(name, calibrated value) of one row of a readings file.\"\"\"
            return row["{col}"], int(row["value"]) * CALIBRATION
        """)
    loop = "key, value = parse_row(row)\n        totals[key] = totals.get(key, 0) + value"
    script = d(f"""
        import csv
        import json

        from {mod} import parse_row

        totals = {{}}
        with open("/app/data/readings.csv") as f:
            for row in csv.DictReader(f):
                LOOP
        with open("/app/report.json", "w") as f:
            json.dump(totals, f, indent=2, sort_keys=True)
        """).replace("LOOP", loop)
    fixed = script.replace(loop, "try:\n            key, value = parse_row(row)\n"
                                 "        except (ValueError, TypeError):\n            continue\n"
                                 "        totals[key] = totals.get(key, 0) + value")
    assert fixed != script
    files = {
        f"environment/files/lib/{mod}.py": (lib, False),
        "environment/files/report.py": (script, False),
        "environment/files/data/readings.csv": (data, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution("/app/report.py", fixed,
                                                  then="PYTHONPATH=/app/lib python3 /app/report.py"), True),
        "tests/check.py": (check_py(d(f"""
            try:
                got = json.loads(read("/app/report.json"))
            except ValueError as e:
                fail(f"report.json is not JSON: {{e}}")
            if got != {totals!r}:
                fail(f"report.json is {{got}}, expected {totals!r}")
            """) + _unchanged({"/app/data/readings.csv": data, f"/app/lib/{mod}.py": lib})), False),
    }
    instruction = (f"Run `/app/report.py` with python3 to write `/app/report.json`, the calibrated total per {col} of "
                   f"`/app/data/readings.csv`; the helper module it imports is in `/app/lib`. Some rows are "
                   f"malformed: the report must skip rows whose value is missing or not a number. Do not edit the "
                   f"data file or the helper module.\n")
    return instruction, files, {"category": "missing_module", "defect": defect}


def include_then_tab(rng: random.Random):
    prog = rng.choice(WORDS)
    hdr, incdir = rng.choice(["config", "units", "limits", "scale"]), rng.choice(["include", "inc", "headers"])
    factor, offset, n = rng.randint(2, 9), rng.randint(1, 99), rng.randint(3, 12)
    tab_at = rng.choice(["link", "compile", "clean"])
    inc_defect = rng.choice(["no_flag", "wrong_dir"])
    wrong = rng.choice([x for x in ["include", "inc", "headers", "src/include"] if x != incdir])
    header = f"#define FACTOR {factor}\n#define OFFSET {offset}\n\nint convert(int x);\n"
    util = f'#include "{hdr}.h"\n\nint convert(int x) {{ return x * FACTOR + OFFSET; }}\n'
    main = d(f"""
        #include <stdio.h>
        #include "{hdr}.h"

        int main(void) {{
            int total = 0;
            for (int i = 1; i <= {n}; i++)
                total += convert(i);
            printf("{prog} total=%d\\n", total);
            return 0;
        }}
        """)
    want = f"{prog} total={sum(i * factor + offset for i in range(1, n + 1))}\n"
    recipes = {"link": "$(CC) $(CFLAGS) -o $@ $(OBJS)", "compile": "$(CC) $(CFLAGS) -c -o $@ $<",
               "clean": f"rm -f $(OBJS) {prog}"}
    ind = {k: ("        " if k == tab_at else "\t") for k in recipes}
    makefile = (f"CC = gcc\nCFLAGS = -Wall -O2{'' if inc_defect == 'no_flag' else ' -I' + wrong}\n"
                f"OBJS = src/main.o src/util.o\n\n{prog}: $(OBJS)\n{ind['link']}{recipes['link']}\n\n"
                f"src/%.o: src/%.c\n{ind['compile']}{recipes['compile']}\n\nclean:\n{ind['clean']}{recipes['clean']}\n")
    fixed = "".join(line.replace("        ", "\t") for line in makefile.splitlines(True))
    fixed = fixed.replace("CFLAGS = -Wall -O2" + ("" if inc_defect == "no_flag" else " -I" + wrong),
                          f"CFLAGS = -Wall -O2 -I{incdir}")
    sources = {f"/app/{incdir}/{hdr}.h": header, "/app/src/util.c": util, "/app/src/main.c": main}
    files = {f"environment/files{p[4:]}": (c, False) for p, c in sources.items()}
    files.update({
        "environment/files/Makefile": (makefile, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution("/app/Makefile", fixed, then="cd /app && make"), True),
        "tests/check.py": (check_py("import shutil, subprocess, tempfile\n" + _unchanged(sources) + d(f"""
            found = sorted(os.path.join(r, f) for r, _, fs in os.walk("/app") for f in fs if f.endswith((".c", ".h")))
            if found != {sorted(sources)!r}:
                fail(f"the sources were moved or copied: {{found}}")
            def run(binary):
                try:
                    return subprocess.run([binary], capture_output=True, text=True, timeout=10).stdout
                except OSError as e:
                    fail(f"cannot run {{binary}}: {{e}}")
            if run("/app/{prog}") != {want!r}:
                fail("/app/{prog} does not print the expected total")
            tmp = tempfile.mkdtemp()
            shutil.copytree("/app", tmp + "/app")
            r = subprocess.run(["make", "-B", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
            if r.returncode != 0:
                fail("`make` in a fresh copy of /app fails: " + r.stderr[-400:])
            if run(tmp + "/app/{prog}") != {want!r}:
                fail("a fresh build prints the wrong total")
            """)), False),
    })
    instruction = (f"Build the program `/app/{prog}` by running `make` in `/app`. The build is broken: repair "
                   f"`/app/Makefile` so that `make` builds it from scratch. Do not edit, move or copy the C sources "
                   f"and headers.\n")
    return instruction, files, {"category": "makefile_syntax", "defect": f"{tab_at}+{inc_defect}"}


def env_then_quoting(rng: random.Random):
    var = rng.choice(["INBOX_DIR", "DOCS_DIR", "SOURCE_DIR"])
    stage = rng.choice(["/app/stage", "/app/tmp/staging", "/app/work"])
    defects = rng.sample(["loop_ls", "cp_args", "basename", "redirect"], 2)
    # distinct first words: the glob's order is the same in every locale
    docs = {f"{w} {rng.choice(['notes', 'draft 2', 'final', 'minutes'])}" if i else w: rng.randint(1, 9)
            for i, w in enumerate(rng.sample(WORDS, rng.randint(3, 5)))}
    fixed = d(f"""
        #!/bin/bash
        # Stages every document of the inbox and summarises it: "<name>: <lines> lines".
        set -e
        : "${{{var}:?{var} must point at the inbox directory}}"
        stage={stage}
        if [ ! -d "$stage" ]; then
          echo "error: staging directory $stage does not exist" >&2
          exit 1
        fi
        mkdir -p /app/out
        for f in "${var}"/*.txt; do
          name=$(basename "$f" .txt)
          cp "$f" "$stage/$name.txt"
          echo "$name: $(wc -l < "$stage/$name.txt") lines"
        done > /app/out/summary.txt
        """)
    bugs = {"loop_ls": (f'for f in "${var}"/*.txt', f'for f in $(ls "${var}"/*.txt)'),
            "cp_args": ('cp "$f" "$stage/$name.txt"', "cp $f $stage/$name.txt"),
            "basename": ('basename "$f" .txt', "basename $f .txt"),
            "redirect": ('wc -l < "$stage/$name.txt"', "wc -l < $stage/$name.txt")}
    script = fixed
    for k in defects:
        script = script.replace(*bugs[k])
    want = "".join(f"{n}: {c} lines\n" for n, c in sorted(docs.items()))
    files = {f"environment/files/inbox/{n}.txt": ("".join(f"line {i}\n" for i in range(c)), False)
             for n, c in docs.items()}
    files.update({
        "environment/files/run.sh": (script, True),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution("/app/run.sh", fixed,
                                                  then=f"mkdir -p {stage}\n{var}=/app/inbox bash /app/run.sh"), True),
        "tests/check.py": (check_py(d(f"""
            import subprocess, tempfile
            if read("/app/out/summary.txt") != {want!r}:
                fail("/app/out/summary.txt is wrong")
            # the repaired script must still read its inbox from ${var}, and cope with any name
            tmp = tempfile.mkdtemp()
            for name, lines in [("a b  c", 2), ("d-e f", 1), ("g", 3)]:
                with open(os.path.join(tmp, name + ".txt"), "w") as f:
                    f.write("x\\n" * lines)
            r = subprocess.run(["bash", "/app/run.sh"], env={{**os.environ, "{var}": tmp}}, capture_output=True,
                               text=True, timeout=30)
            if r.returncode != 0 or read("/app/out/summary.txt") != "a b  c: 2 lines\\nd-e f: 1 lines\\ng: 3 lines\\n":
                fail("run.sh does not summarise an inbox with spaces in its names correctly: " + r.stderr[-300:])
            """)), False),
    })
    instruction = (f"Run `/app/run.sh` to build `/app/out/summary.txt` from the documents in `/app/inbox` (several "
                   f"file names contain spaces). Set up what the script needs, and fix its quoting without changing "
                   f"what it does; it must keep taking the inbox location from `{var}`.\n")
    return instruction, files, {"category": "env_setup", "defect": "+".join(sorted(defects))}


def identity_then_conflict(rng: random.Random):
    repo = rng.choice(WORDS) + "-" + rng.choice(["site", "service", "tools", "docs"])
    who = rng.choice(["Ada Lane", "Ravi Shah", "Mia Kato", "Tom Berg", "Lea Roux"])
    email = who.split()[0].lower() + "@" + rng.choice(WORDS) + ".example"
    conflict = rng.choice(["append", "edit"])
    msg_f, msg_m = f"feature: {rng.choice(WORDS)} support", f"main: {rng.choice(WORDS)} fixes"
    extra = (f"docs/{rng.choice(WORDS)}.md", f"# {rng.choice(WORDS)}\n\nAdded on the feature branch.\n")
    if conflict == "append":
        path = rng.choice(["hosts.txt", "plugins.txt", "AUTHORS", "CHANGES"])
        pool = [f"{w}-{rng.randint(1, 99)}" for w in rng.sample(WORDS, 9)]
        base, mine, theirs = pool[:4], pool[4:4 + rng.randint(1, 2)], pool[6:6 + rng.randint(1, 3)]
        texts = ["\n".join(x) + "\n" for x in (base, base + mine, base + theirs)]
        merged = "\n".join(base + mine + theirs) + "\n"
        rule = f"In `{path}` keep the lines both branches added: those of `main` first, then those of `feature`."
    else:
        path = rng.choice(["settings.conf", "app.cfg", "deploy.conf"])
        keys = rng.sample(["timeout", "workers", "retries", "port", "cache_mb", "batch"], 4)
        vals = [rng.randint(10, 999) for _ in keys] + [rng.randint(1000, 4999), rng.randint(5000, 9999)]
        k = rng.randrange(4)
        conf = lambda v: "".join(f"{key} = {v if i == k else vals[i]}\n" for i, key in enumerate(keys))  # noqa: E731
        texts = [conf(vals[k]), conf(vals[4]), conf(vals[5])]
        side = rng.choice(["main", "feature"])
        merged = conf(vals[4] if side == "main" else vals[5])
        rule = f"Where both branches changed `{keys[k]}` in `{path}`, keep the value from `{side}`."
    files = {f"environment/files/.setup/{b}/{path}": (t, False) for b, t in zip(("base", "main", "feature"), texts)}
    files[f"environment/files/.setup/feature/{extra[0]}"] = (extra[1], False)
    files["environment/files/.setup/build.sh"] = (d(f"""
        #!/bin/bash
        set -e
        export GIT_AUTHOR_DATE=2024-03-01T12:00:00 GIT_COMMITTER_DATE=2024-03-01T12:00:00
        g() {{ git -c user.name=Builder -c user.email=builder@example.invalid "$@"; }}
        git init -q --template= -b main /app/{repo}
        cd /app/{repo}
        cp -r /app/.setup/base/. . && g add -A && g commit -qm "initial import"
        g checkout -qb feature && cp -r /app/.setup/feature/. . && g add -A && g commit -qm "{msg_f}"
        g checkout -q main && cp -r /app/.setup/main/. . && g add -A && g commit -qm "{msg_m}"
        rm -rf /app/.setup
        """), False)
    files.update({
        "environment/Dockerfile": (DOCKERFILE + "RUN bash /app/.setup/build.sh\n", False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            cd /app/{repo}
            git config user.name "{who}"
            git config user.email "{email}"
            git merge feature -m "merge feature" || true
            cat > {path} <<'EOF'
            """) + merged + "EOF\n" + f"git add {path}\ngit commit -q --no-edit\n", True),
        "tests/check.py": (check_py(d(f"""
            import subprocess
            def git(*args):
                r = subprocess.run(["git", "-c", "safe.directory=*", "-C", "/app/{repo}", *args], capture_output=True,
                                   text=True)
                if r.returncode != 0:
                    fail(f"git {{' '.join(args)}} failed: {{r.stderr.strip()}}")
                return r.stdout
            parents = git("log", "-1", "--format=%P", "main").split()
            if git("rev-parse", "--abbrev-ref", "HEAD").strip() != "main" or len(parents) != 2:
                fail("the repository is not on main, or main's last commit is not a merge")
            if git("log", "-1", "--format=%s", parents[0]).strip() != {msg_m!r}:
                fail("the merge's first parent is not main's previous commit")
            if parents[1] != git("rev-parse", "feature").strip() or \\
                    git("log", "-1", "--format=%s", "feature").strip() != {msg_f!r}:
                fail("the merge's second parent is not the feature branch")
            if git("log", "-1", "--format=%an <%ae>", "main").strip() != {f"{who} <{email}>"!r}:
                fail("the merge commit has the wrong author")
            if git("show", "main:{path}") != {merged!r}:
                fail("{path} is not resolved as asked")
            if git("show", "main:{extra[0]}") != {extra[1]!r}:
                fail("the feature branch's other changes are missing")
            if git("status", "--porcelain").strip():
                fail("the work tree is not clean")
            """)), False),
    })
    instruction = (f"In the git repository `/app/{repo}`, merge the branch `feature` into `main` with a merge commit "
                   f"whose author is `{who} <{email}>`. {rule} Leave the work tree clean and the `feature` branch as "
                   f"it is.\n")
    return instruction, files, {"category": "git_identity", "defect": conflict}


def quoted_then_count(rng: random.Random):
    col, pool = rng.choice([("city", ["Oslo", "Lima", "Quito", "Perth", "Kyoto", "Dakar", "Turin"]),
                            ("team", ["Blue Jays", "Red Sox", "Owls", "Falcons", "Tigers", "Otters"]),
                            ("category", ["garden", "kitchen", "tools", "toys", "books", "office"])])
    defect = rng.choice(["comma_before", "comma_in_target", "escaped_quote"])
    values = rng.sample(pool, rng.randint(4, 6))
    if defect == "comma_in_target":
        values = [f"{v}, {rng.choice(['North', 'South', 'East', 'West'])}" for v in values]
    counts = dict(zip(values, rng.sample(range(1, 10), len(values))))  # distinct counts: one right order
    cells = [v for v, c in counts.items() for _ in range(c)]
    while sum(a != b for a, b in zip(cells, cells[1:])) < len(counts):  # grouped: uniq -c alone would do
        rng.shuffle(cells)
    first, last = ["Ana", "Ben", "Chen", "Dora", "Eli", "Fay"], ["Lee", "Moss", "Ng", "Ortiz", "Park"]
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["id", "name", "note", col, "amount"])
    for i, v in enumerate(cells):
        name = f"{rng.choice(last)}, {rng.choice(first)}" if defect == "comma_before" else rng.choice(first)
        note = rng.choice(['said "call back", later', 'needs "gift wrap", twice', "none"]) \
            if defect == "escaped_quote" else rng.choice(["none", "repeat", "new"])
        w.writerow([100 + i, name, note, v, rng.randint(5, 500)])
    data = buf.getvalue()
    out = f"/app/{col}_counts.txt"
    want = "".join(f"{c} {v}\n" for v, c in sorted(counts.items(), key=lambda kv: -kv[1]))
    files = {
        "environment/files/data/orders.csv": (data, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            python3 - <<'EOF'
            import collections, csv
            with open("/app/data/orders.csv", newline="") as f:
                counts = collections.Counter(row["{col}"] for row in csv.DictReader(f))
            with open("{out}", "w") as f:
                for value, n in counts.most_common():
                    f.write(f"{{n}} {{value}}\\n")
            EOF
            """), True),
        "tests/check.py": (check_py(d(f"""
            got = read("{out}")
            if got != {want!r}:
                fail(f"{out} is {{got!r}}: wrong counts, values or order")
            """) + _unchanged({"/app/data/orders.csv": data})), False),
    }
    instruction = (f"`/app/data/orders.csv` is a CSV file with a header line; some of its fields are quoted. Write "
                   f"`{out}` with one line per distinct value of its `{col}` column: the number of rows with that "
                   f"value, one space, and the value as it reads once unquoted; most frequent first. Do not change "
                   f"the data file.\n")
    return instruction, files, {"category": "naive_parsing", "defect": defect}


def stream_then_fields(rng: random.Random):
    tool = rng.choice(["events", "feed", "tail-events", "watch"])
    sep = rng.choice([" | ", ";", "\t", ","])
    target = rng.choice(["host", "component", "message", "latency"])
    count, seed, day = rng.randint(8, 25), rng.randint(1, 10**6), rng.randint(1, 28)
    hosts = [f"{w}-{rng.randint(1, 9)}" for w in rng.sample(WORDS, 4)]
    comps = rng.sample(["auth", "billing", "search", "cache", "mailer", "ingest", "reports"], 4)
    msgs = ["request served", "cache miss on lookup", "retrying upstream call", "user session renewed",
            "slow query logged", "job queued for later"]
    stream = d(f"""
        #!/usr/bin/env python3
        "Prints the service's events as they happen, one a line; it never exits."
        import random
        import signal
        import time

        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
        HOSTS, COMPONENTS, MESSAGES = {hosts!r}, {comps!r}, {msgs!r}
        rng = random.Random({seed})
        i = 0
        while True:
            i += 1
            host, component, message = rng.choice(HOSTS), rng.choice(COMPONENTS), rng.choice(MESSAGES)
            fields = [f"2024-05-{day:02d} 10:{{i // 60 % 60:02d}}:{{i % 60:02d}}", host, component, message,
                      f"{{rng.randint(1, 999)}}ms"]
            print({sep!r}.join(fields), flush=True)
            time.sleep(0.05)
        """)
    ref, want = random.Random(seed), []
    for _ in range(count):
        event = {"host": ref.choice(hosts), "component": ref.choice(comps), "message": ref.choice(msgs)}
        event["latency"] = f"{ref.randint(1, 999)}ms"
        want.append(event[target])
    col = ["time", "host", "component", "message", "latency"].index(target) + 1
    awk_sep = {" | ": " [|] ", ";": ";", "\t": "\\t", ",": ","}[sep]
    files = {
        f"environment/files/bin/{tool}": (stream, True),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            /app/bin/{tool} | head -n {count} | awk -F '{awk_sep}' '{{print ${col}}}' > /app/{target}.txt
            """), True),
        "tests/check.py": (check_py(d(f"""
            got = read("/app/{target}.txt")
            if got != {"".join(v + chr(10) for v in want)!r}:
                fail(f"/app/{target}.txt has {{len(got.splitlines())}} lines; expected the {target} of each of the "
                     f"first {count} events, one per line")
            """)), False),
    }
    instruction = (f"`/app/bin/{tool}` prints the events of a service, one per line. Each event has five fields, in "
                   f"this order: time, host, component, message and latency. Write the {target} field of each of "
                   f"the first {count} events to `/app/{target}.txt`, one per line and in order, exactly as the "
                   f"field reads (no surrounding spaces).\n")
    return instruction, files, {"category": "hang", "defect": {" | ": "pipe", ";": "semicolon", "\t": "tab",
                                                              ",": "comma"}[sep]}


def mode_then_pidfile(rng: random.Random):
    svc = rng.choice(["sign", "seal", "stamp", "notary"])
    key = f"/app/{rng.choice(['keys', 'etc/ssl', 'secrets'])}/{rng.choice(['signing', 'release', svc])}.key"
    pidfile = f"/app/{rng.choice(['run', 'var/run', 'tmp'])}/{svc}d.pid"
    mode, pid = rng.choice([0o644, 0o640, 0o604, 0o664, 0o660, 0o666]), rng.randint(2000, 32000)
    secret = "".join(rng.choice("0123456789abcdef") for _ in range(32)) + "\n"
    manifest = "".join(f"{w}-{rng.randint(1, 9)}.{rng.randint(0, 20)}.tar.gz {rng.randint(1000, 99999)}\n"
                       for w in rng.sample(WORDS, rng.randint(3, 6)))
    sig = hmac.new(secret.strip().encode(), manifest.encode(), hashlib.sha256).hexdigest() + "  manifest.txt\n"
    service = d(f"""
        #!/usr/bin/env python3
        "{svc}d: signs /app/data/manifest.txt with the release key into /app/out/manifest.sig (one run, then exits)."
        import hashlib, hmac, os, stat, sys

        KEY, PIDFILE = "{key}", "{pidfile}"

        def die(msg):
            print(f"{svc}d: {{msg}}", file=sys.stderr)
            sys.exit(1)

        mode = stat.S_IMODE(os.stat(KEY).st_mode)
        if mode & 0o077:
            die(f"permissions {{mode:04o}} for '{{KEY}}' are too open: "
                "the key must not be accessible by group or others")
        if os.path.exists(PIDFILE):
            with open(PIDFILE) as f:
                die(f"pid file {{PIDFILE}} exists (pid {{f.read().strip()}}): is another {svc}d running?")
        os.makedirs(os.path.dirname(PIDFILE), exist_ok=True)
        with open(PIDFILE, "w") as f:
            f.write(f"{{os.getpid()}}\\n")
        try:
            with open(KEY) as f:
                secret = f.read().strip().encode()
            with open("/app/data/manifest.txt", "rb") as f:
                digest = hmac.new(secret, f.read(), hashlib.sha256).hexdigest()
            os.makedirs("/app/out", exist_ok=True)
            with open("/app/out/manifest.sig", "w") as f:
                f.write(digest + "  manifest.txt\\n")
        finally:
            os.remove(PIDFILE)
        print("{svc}d: signed /app/data/manifest.txt")
        """)
    files = {
        f"environment/files/bin/{svc}d": (service, True),
        f"environment/files{key[4:]}": (secret, False),
        f"environment/files{pidfile[4:]}": (f"{pid}\n", False),
        "environment/files/data/manifest.txt": (manifest, False),
        "environment/Dockerfile": (DOCKERFILE + f"RUN chmod {mode:o} {key}\n", False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            chmod 600 {key}
            if ! kill -0 "$(cat {pidfile})" 2>/dev/null; then rm -f {pidfile}; fi
            /app/bin/{svc}d
            """), True),
        "tests/check.py": (check_py(d(f"""
            import stat
            if read("/app/out/manifest.sig") != {sig!r}:
                fail("/app/out/manifest.sig is missing or wrong")
            mode = stat.S_IMODE(os.stat("{key}").st_mode)
            if mode & 0o077 or not mode & 0o400:
                fail(f"{key} has mode {{mode:04o}}: it must be readable by its owner only")
            if os.path.exists("{pidfile}") and read("{pidfile}").strip() == "{pid}":
                fail("the stale pid file is still there")
            """) + _unchanged({key: secret, f"/app/bin/{svc}d": service, "/app/data/manifest.txt": manifest})), False),
    }
    instruction = (f"Run the signing service `/app/bin/{svc}d` once: it signs `/app/data/manifest.txt` into "
                   f"`/app/out/manifest.sig` and exits. It refuses to start: fix what stops it without changing the "
                   f"service, the manifest or the content of its key `{key}`.\n")
    return instruction, files, {"category": "permission", "defect": f"{mode:04o}"}


def syntax_then_set_e(rng: random.Random):
    name = rng.choice(WORDS)
    syntax = rng.choice(["missing_fi", "missing_then", "missing_done", "unclosed_paren"])
    stop = rng.choice(["grep_count", "pipe_count", "arith"])
    count_ok = {"grep_count": 'n=$(grep -c ERROR "$f" || true)', "arith": 'n=$(grep -c ERROR "$f" || true)',
                "pipe_count": 'n=$({ grep ERROR "$f" || true; } | wc -l)'}[stop]
    fixed = d(f"""
        #!/bin/bash
        # Counts the ERROR lines of every log in /app/logs into /app/report/errors.txt.
        set -euo pipefail
        if [ ! -d /app/logs ]; then
          echo "error: /app/logs is missing" >&2
          exit 1
        fi
        mkdir -p /app/report
        files=0
        total=0
        for f in /app/logs/*.log; do
          {count_ok}
          total=$((total + n))
          files=$((files + 1))
          echo "$(basename "$f" .log) $n"
        done > /app/report/errors.txt
        echo "total $total in $files logs" >> /app/report/errors.txt
        echo "{name}: report written"
        """)
    stopped = {"grep_count": (count_ok, 'n=$(grep -c ERROR "$f")'),
               "pipe_count": (count_ok, 'n=$(grep ERROR "$f" | wc -l)'),
               "arith": ("files=$((files + 1))", "((files++))")}[stop]
    script = fixed.replace(*stopped)
    script = script.replace(*{"missing_fi": ("  exit 1\nfi\n", "  exit 1\n"),
                              "missing_then": ("]; then\n  echo", "]\n  echo"),
                              "missing_done": ("done > /app/report/errors.txt", "> /app/report/errors.txt"),
                              "unclosed_paren": ('"$(basename "$f" .log) $n"', '"$(basename "$f" .log $n"')}[syntax])
    logs, lines = {}, []
    names = sorted(rng.sample(WORDS, rng.randint(3, 5)))
    clean = rng.choice(names)  # one log without any ERROR line
    for n in names:
        errs = 0 if n == clean else rng.randint(1, 6)
        rows = [f"INFO {n} ok {i}" for i in range(rng.randint(2, 8))] + [f"ERROR {n} failed {i}" for i in range(errs)]
        rng.shuffle(rows)
        logs[n] = "\n".join(rows) + "\n"
        lines.append(f"{n} {errs}")
    total = sum(int(x.split()[1]) for x in lines)
    want = "\n".join(lines) + f"\ntotal {total} in {len(names)} logs\n"
    files = {f"environment/files/logs/{n}.log": (t, False) for n, t in logs.items()}
    files.update({
        "environment/files/summarize.sh": (script, True),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution("/app/summarize.sh", fixed, then="bash /app/summarize.sh"), True),
        "tests/check.py": (check_py(d(f"""
            import subprocess
            if subprocess.run(["bash", "-n", "/app/summarize.sh"]).returncode != 0:
                fail("summarize.sh still has a syntax error")
            if "\\nset -euo pipefail\\n" not in read("/app/summarize.sh"):
                fail("summarize.sh must keep its `set -euo pipefail` line")
            if read("/app/report/errors.txt") != {want!r}:
                fail("/app/report/errors.txt is wrong or incomplete")
            """) + _unchanged({f"/app/logs/{n}.log": t for n, t in logs.items()})), False),
    })
    instruction = ("Run `/app/summarize.sh` with bash so that it writes the complete `/app/report/errors.txt` (one "
                   "line per log in `/app/logs`, then the total). The script fails: repair it without changing what "
                   "it does, keeping its `set -euo pipefail` line, and leave the logs as they are.\n")
    return instruction, files, {"category": "script_syntax", "defect": f"{syntax}+{stop}"}


def spaces_then_readonly(rng: random.Random):
    ro = rng.choice(["file", "dir", "both"])
    subdirs = ["", "", f"{rng.choice(WORDS)}/", f"{rng.choice(['2023', '2024'])}/{rng.choice(WORDS)} team/"]
    stems = rng.sample(["Q3 review", "march plan", "Team Sync", "budget draft 2", "ideas", "retro notes",
                        "On call log", "todo"], rng.randint(4, 6))
    notes = {f"/app/notes/{rng.choice(subdirs)}{s}.md": f"# {s}\n{rng.choice(WORDS)} {rng.randint(1, 99)}\n"
             for s in stems}
    decoys = {f"/app/notes/{rng.choice(subdirs)}{s}": "not a note\n"
              for s in rng.sample(["old draft.txt", "scan 1.png.txt", "notes.md.bak", "copy of ideas.txt"], 2)}
    tool = d("""
        #!/usr/bin/env python3
        "bundle OUTPUT FILE...: packs the given notes into OUTPUT, by file name, each under a '### name' line."
        import os, stat, sys

        def die(msg):
            print(f"bundle: {msg}", file=sys.stderr)
            sys.exit(1)

        if len(sys.argv) < 3:
            die("usage: bundle OUTPUT FILE...")
        out, notes = sys.argv[1], []
        for p in sys.argv[2:]:
            if not os.path.isfile(p):
                die(f"cannot read {p!r}: no such file")
            with open(p) as f:
                notes.append((os.path.basename(p), f.read()))
        parent = os.path.dirname(os.path.abspath(out))
        if os.path.exists(out) and not os.stat(out).st_mode & stat.S_IWUSR:
            die(f"{out} is read-only (mode {stat.S_IMODE(os.stat(out).st_mode):04o}): refusing to overwrite it")
        if not os.stat(parent).st_mode & stat.S_IWUSR:
            mode = stat.S_IMODE(os.stat(parent).st_mode)
            die(f"cannot create {out}: directory {parent} is read-only (mode {mode:04o})")
        with open(out, "w") as f:
            for name, text in sorted(notes):
                f.write(f"### {name}\\n{text}")
        print(f"bundle: {len(notes)} notes written to {out}")
        """)
    want = "".join(f"### {name}\n{t}" for name, t in sorted((p.rsplit("/", 1)[1], t) for p, t in notes.items()))
    files = {f"environment/files{p[4:]}": (t, False) for p, t in {**notes, **decoys}.items()}
    run = ""
    if ro in ("file", "both"):
        files["environment/files/export/notes.bundle"] = ("### stale\nold bundle\n", False)
        run += "RUN chmod 444 /app/export/notes.bundle\n"
    run += "RUN mkdir -p /app/export" + (" && chmod 555 /app/export\n" if ro in ("dir", "both") else "\n")
    files.update({
        "environment/files/bin/bundle": (tool, True),
        "environment/Dockerfile": (DOCKERFILE + run, False),
        "solution/solve.sh": (d("""
            #!/bin/bash
            set -e
            chmod u+w /app/export
            [ ! -e /app/export/notes.bundle ] || chmod u+w /app/export/notes.bundle
            find /app/notes -type f -name '*.md' -print0 | xargs -0 /app/bin/bundle /app/export/notes.bundle
            """), True),
        "tests/check.py": (check_py(d(f"""
            if read("/app/export/notes.bundle") != {want!r}:
                fail("/app/export/notes.bundle does not hold exactly the .md notes")
            """) + _unchanged({**notes, "/app/bin/bundle": tool})), False),
    })
    instruction = ("Bundle every `.md` note under `/app/notes` (subdirectories included; many names contain spaces) "
                   "into `/app/export/notes.bundle` with `/app/bin/bundle OUTPUT FILE...`, each note once and no other "
                   "file. Do not change the tool or the notes.\n")
    return instruction, files, {"category": "quoting", "defect": ro}


FAMILIES = [
    Family("log-then-exec", log_then_exec, skills=("find-log", "exec-bit"), fixes=2),
    Family("import-then-crash", import_then_crash, skills=("python-import", "crash-data"), fixes=2),
    Family("include-then-tab", include_then_tab, skills=("c-include", "make-tab"), fixes=2),
    Family("env-then-quoting", env_then_quoting, skills=("env-setup", "shell-quoting"), fixes=2),
    Family("identity-then-conflict", identity_then_conflict, skills=("git-identity", "git-merge-conflict"), fixes=2),
    Family("quoted-then-count", quoted_then_count, skills=("csv-quoted", "count-unique"), fixes=2),
    Family("stream-then-fields", stream_then_fields, skills=("bounded-stream", "log-fields"), fixes=2),
    Family("mode-then-pidfile", mode_then_pidfile, skills=("key-mode", "stale-pidfile"), fixes=2),
    Family("syntax-then-set-e", syntax_then_set_e, skills=("shell-syntax", "set-e-pipeline"), fixes=2),
    Family("spaces-then-readonly", spaces_then_readonly, skills=("names-with-spaces", "readonly-output"), fixes=2),
]
