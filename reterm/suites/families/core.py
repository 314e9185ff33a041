"""The twelve families the suite started with. Their code and seeds are frozen: earlier results (the comparison's
`compare_instances` among them) were measured on exactly these instances."""

from __future__ import annotations

import json
import random

from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha, write_file_solution

def find_log(rng: random.Random):
    name = rng.choice(WORDS) + "-" + rng.choice(["api", "worker", "db", "cache"])
    year = rng.choice([2021, 2022, 2023])
    month = rng.randint(1, 12)
    lines, errors = [], 0
    for i in range(rng.randint(40, 90)):
        level = rng.choices(["INFO", "WARN", "ERROR"], [6, 2, 1])[0]
        errors += level == "ERROR"
        lines.append(f"2024-01-{i % 28 + 1:02d} {level} request {rng.randint(1000, 9999)} handled")
    decoy = [f"2024-02-01 ERROR old {i}" for i in range(rng.randint(2, 6))]
    rel = f"data/archive/{year}/{month:02d}/{name}.log"
    files = {
        f"environment/files/{rel}": ("\n".join(lines) + "\n", False),
        f"environment/files/data/{name}.log.old": ("\n".join(decoy) + "\n", False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            log=$(find /app/data -name '{name}.log' -type f | head -n 1)
            grep -c ' ERROR ' "$log" > /app/error_count.txt
            """), True),
        "tests/check.py": (check_py(f"""
            got = read("/app/error_count.txt").strip()
            if got != "{errors}":
                fail(f"expected {errors} ERROR lines, found {{got!r}}")
            """), False),
    }
    instruction = (f"The application log `{name}.log` is stored somewhere under `/app/data`. Count the lines whose "
                   f"level is ERROR in it and write just that number to `/app/error_count.txt`.\n")
    return instruction, files, {"category": "wrong_path"}


def exec_bit(rng: random.Random):
    values = [rng.randint(1, 500) for _ in range(rng.randint(5, 12))]
    label = rng.choice(WORDS)
    script = d(f"""
        #!/bin/bash
        # Report generator: sums the numbers in /app/data/values.txt.
        set -e
        total=0
        while read -r v; do total=$((total + v)); done < /app/data/values.txt
        echo "report={label} total=$total" > /app/report.txt
        """)
    files = {
        "environment/files/bin/make_report.sh": (script, False),
        "environment/files/data/values.txt": ("\n".join(map(str, values)) + "\n", False),
        "environment/Dockerfile": (DOCKERFILE + "RUN chmod 644 /app/bin/make_report.sh\n", False),
        "solution/solve.sh": (d("""
            #!/bin/bash
            set -e
            chmod +x /app/bin/make_report.sh
            /app/bin/make_report.sh
            """), True),
        "tests/check.py": (check_py(f"""
            got = read("/app/report.txt").strip()
            if got != "report={label} total={sum(values)}":
                fail(f"unexpected report: {{got!r}}")
            if hashlib.sha256(read("/app/bin/make_report.sh").encode()).hexdigest() != "{sha(script)}":
                fail("make_report.sh was modified")
            if not os.access("/app/bin/make_report.sh", os.X_OK):
                fail("make_report.sh is still not executable")
            """), False),
    }
    instruction = ("Run the report generator `/app/bin/make_report.sh` so that it produces `/app/report.txt`. "
                   "Do not change what the generator script contains, and leave it runnable as "
                   "`/app/bin/make_report.sh`.\n")
    return instruction, files, {"category": "permission"}


def python_import(rng: random.Random):
    mod = rng.choice(["textutils", "mathkit", "helpers", "toolbox", "formatting"]) + str(rng.randint(1, 9))
    factor = rng.randint(2, 9)
    items = [rng.randint(1, 50) for _ in range(6)]
    main = d(f"""
        from {mod} import scale

        values = {items}
        with open("/app/output.txt", "w") as f:
            f.write(",".join(str(v) for v in scale(values)) + "\\n")
        """)
    files = {
        f"environment/files/lib/{mod}.py": (d(f"""
            def scale(values):
                return [v * {factor} for v in values]
            """), False),
        "environment/files/main.py": (main, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d("""
            #!/bin/bash
            set -e
            cd /app
            PYTHONPATH=/app/lib python3 /app/main.py
            """), True),
        "tests/check.py": (check_py(f"""
            want = "{','.join(str(v * factor) for v in items)}"
            got = read("/app/output.txt").strip()
            if got != want:
                fail(f"output.txt is {{got!r}}, expected {{want!r}}")
            if hashlib.sha256(read("/app/main.py").encode()).hexdigest() != "{sha(main)}":
                fail("main.py was modified")
            """), False),
    }
    instruction = ("Run `/app/main.py` with python3 so that it writes `/app/output.txt`. The helper module it "
                   "imports is in `/app/lib`. Do not edit `main.py`.\n")
    return instruction, files, {"category": "missing_module"}


def json_config(rng: random.Random):
    name = rng.choice(WORDS)
    port = rng.randint(2000, 9000)
    workers = rng.randint(1, 16)
    good = {"name": name, "port": port, "workers": workers, "debug": False}
    body = json.dumps(good, indent=2)
    kind = rng.choice(["trailing_comma", "single_quotes", "missing_comma"])
    if kind == "trailing_comma":
        broken = body.replace('"debug": false', '"debug": false,')
    elif kind == "single_quotes":
        broken = body.replace(f'"name": "{name}"', f"'name': '{name}'")
    else:
        broken = body.replace(f'"port": {port},', f'"port": {port}')
    app = d("""
        import json

        with open("/app/config.json") as f:
            cfg = json.load(f)
        with open("/app/result.txt", "w") as f:
            f.write(f"{cfg['name']}:{cfg['port']}:{cfg['workers']}\\n")
        """)
    files = {
        "environment/files/config.json": (broken + "\n", False),
        "environment/files/app.py": (app, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution("/app/config.json", body, then="python3 /app/app.py"), True),
        "tests/check.py": (check_py(f"""
            try:
                cfg = json.loads(read("/app/config.json"))
            except ValueError as e:
                fail(f"config.json is still not valid JSON: {{e}}")
            if cfg != {good!r}:
                fail(f"settings changed: {{cfg}}")
            if read("/app/result.txt").strip() != "{name}:{port}:{workers}":
                fail("result.txt is wrong")
            """), False),
    }
    instruction = ("The service `/app/app.py` fails when it starts. Make it run successfully (it writes "
                   "`/app/result.txt`). Keep every setting in `/app/config.json` as it is: only repair the file.\n")
    return instruction, files, {"category": "config_syntax", "defect": kind}


def csv_totals(rng: random.Random):
    regions = rng.sample(["north", "south", "east", "west", "central", "coast"], rng.randint(3, 5))
    rows, totals = [], {}
    for _ in range(rng.randint(10, 20)):
        r = rng.choice(regions)
        amount = rng.randint(1, 999)
        totals[r] = totals.get(r, 0) + amount
        rows.append(f"{r} {amount}")
    # ties would make the order ambiguous
    while len(set(totals.values())) != len(totals):
        r = rng.choice(regions)
        totals[r] += 1
        rows.append(f"{r} 1")
    want = "region,total\n" + "".join(f"{r},{t}\n" for r, t in sorted(totals.items(), key=lambda kv: -kv[1]))
    files = {
        "environment/files/sales.txt": ("\n".join(rows) + "\n", False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d("""
            #!/bin/bash
            set -e
            { echo "region,total"; awk '{s[$1]+=$2} END {for (r in s) print r "," s[r]}' /app/sales.txt \\
                | sort -t, -k2,2nr; } > /app/totals.csv
            """), True),
        "tests/check.py": (check_py(f"""
            got = read("/app/totals.csv")
            want = {want!r}
            if got != want:
                fail(f"totals.csv is {{got!r}}, expected {{want!r}}")
            """), False),
    }
    instruction = ("`/app/sales.txt` has one sale per line: a region and an amount separated by a space. Write "
                   "`/app/totals.csv` with the header line `region,total`, then one line per region with the sum "
                   "of its amounts, sorted by total from largest to smallest. No spaces, no blank lines.\n")
    return instruction, files, {"category": "output_format"}


def env_setup(rng: random.Random):
    var = rng.choice(["DATA_DIR", "DATASET_ROOT", "INPUT_DIR"])
    cache = rng.choice(["/app/cache", "/app/.cache", "/app/tmp/work"])
    names = rng.sample(WORDS, 4)
    counts = {n: rng.randint(1, 30) for n in names}
    script = d(f"""
        #!/bin/bash
        # Builds /app/out/summary.txt from the dataset.
        : "${{{var}:?{var} must point at the dataset directory}}"
        if [ ! -d {cache} ]; then
          echo "error: cache directory {cache} does not exist" >&2
          exit 1
        fi
        mkdir -p /app/out
        for f in "${var}"/*.txt; do
          echo "$(basename "$f" .txt) $(wc -l < "$f")"
        done | sort > /app/out/summary.txt
        """)
    files = {f"environment/files/dataset/{n}.txt": ("".join(f"row {i}\n" for i in range(c)), False)
             for n, c in counts.items()}
    files.update({
        "environment/files/run.sh": (script, True),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            mkdir -p {cache}
            export {var}=/app/dataset
            bash /app/run.sh
            """), True),
        "tests/check.py": (check_py(f"""
            want = {"".join(f"{n} {counts[n]}" + chr(10) for n in sorted(counts))!r}
            got = read("/app/out/summary.txt")
            if got != want:
                fail(f"summary.txt is {{got!r}}, expected {{want!r}}")
            """), False),
    })
    instruction = ("Run `/app/run.sh` to build `/app/out/summary.txt`. The dataset it summarises is in "
                   "`/app/dataset`. Don't edit the script; set up what it needs.\n")
    return instruction, files, {"category": "env_setup"}


def fix_bug(rng: random.Random):
    kind = rng.choice(["median", "mean", "inclusive_range"])
    if kind == "median":
        fn, buggy, fixed = "median", d("""
            def median(values):
                s = sorted(values)
                return s[len(s) // 2]
            """), d("""
            def median(values):
                s = sorted(values)
                mid = len(s) // 2
                if len(s) % 2:
                    return s[mid]
                return (s[mid - 1] + s[mid]) / 2
            """)
        cases = [([3, 1, 2], 2), ([4, 1, 3, 2], 2.5), ([10, 20], 15.0), ([5], 5)]
        e = rng.randint(2, 9)
        cases.append(([e, e + 4, e + 1, e + 9], e + 2.5))
    elif kind == "mean":
        fn, buggy, fixed = "mean", d("""
            def mean(values):
                return sum(values) // len(values)
            """), d("""
            def mean(values):
                return sum(values) / len(values)
            """)
        cases = [([2, 2, 2], 2), ([1, 2], 1.5), ([1, 2, 3, 5], 2.75)]
        e = rng.randint(2, 9)
        cases.append(([e, e + 1], e + 0.5))
    else:
        fn, buggy, fixed = "inclusive_range", d("""
            def inclusive_range(lo, hi):
                return list(range(lo, hi))
            """), d("""
            def inclusive_range(lo, hi):
                return list(range(lo, hi + 1))
            """)
        cases = [((1, 3), [1, 2, 3]), ((5, 5), [5]), ((0, 1), [0, 1])]
        e = rng.randint(2, 9)
        cases.append(((e, e + 2), [e, e + 1, e + 2]))
    call = f"{fn}(*{cases[0][0]!r})" if isinstance(cases[0][0], tuple) else f"{fn}({cases[0][0]!r})"
    # The visible example only covers a case the buggy code already gets right, so "it ran" proves nothing.
    files = {
        "environment/files/stats.py": (buggy, False),
        "environment/files/example.py": (d(f"""
            from stats import {fn}

            print({call})
            """), False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution("/app/stats.py", fixed), True),
        "tests/check.py": (check_py(f"""
            sys.path.insert(0, "/app")
            try:
                from stats import {fn}
            except Exception as e:
                fail(f"cannot import {fn} from /app/stats.py: {{e}}")
            for args, want in {cases!r}:
                got = {fn}(*args) if isinstance(args, tuple) else {fn}(args)
                if got != want:
                    fail(f"{fn}({{args!r}}) returned {{got!r}}, expected {{want!r}}")
            """), False),
    }
    instruction = (f"The function `{fn}` in `/app/stats.py` gives wrong answers for some inputs. Find the bug and "
                   f"fix it so that `{fn}` is correct for every valid input (`/app/example.py` shows how it is "
                   f"called).\n")
    return instruction, files, {"category": "buggy_code", "defect": kind}


def extract_member(rng: random.Random):
    proj = rng.choice(WORDS)
    target = rng.choice(["config/settings.ini", "src/main.py", "docs/CHANGES.txt", "data/seed.csv"])
    content = f"# {proj} {rng.randint(100, 999)}\nvalue={rng.randint(1, 10**6)}\n"
    others = {p: f"other {p}\n" for p in ["config/settings.ini", "src/main.py", "docs/CHANGES.txt",
                                         "data/seed.csv", "README.md"] if p != target}
    files = {f"environment/files/src/{proj}/{p}": (c, False) for p, c in others.items()}
    files[f"environment/files/src/{proj}/{target}"] = (content, False)
    files.update({
        "environment/Dockerfile": (DOCKERFILE + f"RUN cd /app/src && tar -czf /app/backup.tar.gz ./{proj} && "
                                                 f"cd /app && rm -rf /app/src\n", False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            mkdir -p /app/restored
            tar -xzf /app/backup.tar.gz -C /app/restored ./{proj}/{target}
            """), True),
        "tests/check.py": (check_py(f"""
            got = read("/app/restored/{proj}/{target}")
            if got != {content!r}:
                fail("restored file has the wrong content")
            found = sorted(os.path.join(r, f) for r, _, fs in os.walk("/app/restored") for f in fs)
            if found != ["/app/restored/{proj}/{target}"]:
                fail(f"only the one file may be restored, found {{found}}")
            if not os.path.isfile("/app/backup.tar.gz"):
                fail("the backup archive was removed")
            """), False),
    })
    instruction = (f"Restore only the file `{proj}/{target}` from the backup `/app/backup.tar.gz` into "
                   f"`/app/restored/`, keeping its path inside the archive (so it ends up at "
                   f"`/app/restored/{proj}/{target}`). Extract nothing else, and keep the backup.\n")
    return instruction, files, {"category": "wrong_tool_usage"}


def crash_data(rng: random.Random):
    sensors = rng.sample(WORDS, 4)
    bad = rng.choice(["n/a", "ERR", "-", "?"])
    rows, totals = ["sensor,value"], {}
    for i in range(rng.randint(14, 24)):
        n = rng.choice(sensors)
        if i % 5 == 3:
            rows.append(f"{n},{bad}")
            continue
        v = rng.randint(1, 90)
        totals[n] = totals.get(n, 0) + v
        rows.append(f"{n},{v}")
    data = "\n".join(rows) + "\n"
    loop = 'totals[row["sensor"]] = totals.get(row["sensor"], 0) + int(row["value"])'
    script = d(f"""
        import csv
        import json

        totals = {{}}
        with open("/app/data/readings.csv") as f:
            for row in csv.DictReader(f):
                {loop}
        with open("/app/report.json", "w") as f:
            json.dump(totals, f, indent=2, sort_keys=True)
        """)
    guarded = ('try:\n            value = int(row["value"])\n        except ValueError:\n            continue\n'
               '        totals[row["sensor"]] = totals.get(row["sensor"], 0) + value')
    fixed = script.replace(loop, guarded)
    files = {
        "environment/files/report.py": (script, False),
        "environment/files/data/readings.csv": (data, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution("/app/report.py", fixed, then="python3 /app/report.py"), True),
        "tests/check.py": (check_py(f"""
            try:
                got = json.loads(read("/app/report.json"))
            except ValueError as e:
                fail(f"report.json is not JSON: {{e}}")
            if got != {totals!r}:
                fail(f"report.json is {{got}}, expected {totals!r}")
            if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "{sha(data)}":
                fail("readings.csv was modified")
            """), False),
    }
    instruction = ("Run `/app/report.py` to write `/app/report.json`, the total value per sensor of "
                   "`/app/data/readings.csv`. Some rows of the readings are malformed: the report must skip rows "
                   "whose value is not a number. Do not edit the data file.\n")
    return instruction, files, {"category": "runtime_exception"}


def bounded_stream(rng: random.Random):
    count = rng.randint(12, 30)
    seed = rng.randint(1, 10**6)
    monitor = d(f"""
        #!/usr/bin/env python3
        "Streams sensor samples, one a line, forever (or --count N samples, then exits)."
        import argparse
        import random
        import time

        ap = argparse.ArgumentParser(description=__doc__)
        ap.add_argument("--count", type=int, default=0, help="stop after N samples (0: never stop)")
        args = ap.parse_args()
        rng = random.Random({seed})
        i = 0
        while not args.count or i < args.count:
            i += 1
            print(f"sample {{i}} {{rng.randint(0, 999)}}", flush=True)
            time.sleep(0.02)
        """)
    ref = random.Random(seed)
    want = "".join(f"sample {i} {ref.randint(0, 999)}\n" for i in range(1, count + 1))
    files = {
        "environment/files/bin/monitor": (monitor, True),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            /app/bin/monitor --count {count} > /app/samples.txt
            """), True),
        "tests/check.py": (check_py(f"""
            got = read("/app/samples.txt")
            if got != {want!r}:
                fail(f"samples.txt has {{len(got.splitlines())}} lines; expected exactly the first {count} samples")
            """), False),
    }
    instruction = (f"`/app/bin/monitor` streams sensor samples, one per line. Save exactly its first {count} lines "
                   f"to `/app/samples.txt`.\n")
    return instruction, files, {"category": "hang"}


def missing_input(rng: random.Random):
    min_len = rng.randint(4, 6)
    words = rng.sample(WORDS, 10) + [w[:3] for w in rng.sample(WORDS, 3)]
    docs = {f"doc{i}.txt": " ".join(rng.sample(words, 6)) + "\n" for i in range(3)}
    indexer = d("""
        import configparser
        import os

        cfg = configparser.ConfigParser()
        with open("/app/etc/indexer.ini") as f:
            cfg.read_file(f)
        source = cfg["index"]["source"]
        min_length = cfg["index"].getint("min_length")
        words = set()
        for name in sorted(os.listdir(source)):
            with open(os.path.join(source, name)) as f:
                words.update(w for w in f.read().split() if len(w) >= min_length)
        with open("/app/index.txt", "w") as f:
            f.write("\\n".join(sorted(words)) + "\\n")
        """)
    want = "\n".join(sorted({w for t in docs.values() for w in t.split() if len(w) >= min_len})) + "\n"
    files = {f"environment/files/docs/{n}": (t, False) for n, t in docs.items()}
    files.update({
        "environment/files/indexer.py": (indexer, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            mkdir -p /app/etc
            printf '[index]\\nsource = /app/docs\\nmin_length = {min_len}\\n' > /app/etc/indexer.ini
            python3 /app/indexer.py
            """), True),
        "tests/check.py": (check_py(f"""
            import configparser
            cfg = configparser.ConfigParser()
            try:
                cfg.read_string(read("/app/etc/indexer.ini"))
                section = cfg["index"]
                ok = section["source"].rstrip("/") == "/app/docs" and section.getint("min_length") == {min_len}
            except (KeyError, ValueError, configparser.Error) as e:
                fail(f"indexer.ini is not a valid settings file: {{e!r}}")
            if not ok:
                fail("indexer.ini does not hold the settings asked for")
            if read("/app/index.txt") != {want!r}:
                fail("index.txt is wrong")
            """), False),
    })
    instruction = (f"The indexer `/app/indexer.py` writes `/app/index.txt`, but its settings file "
                   f"`/app/etc/indexer.ini` was lost. Recreate it with a section `[index]` holding "
                   f"`source = /app/docs` and `min_length = {min_len}`, then run the indexer with python3.\n")
    return instruction, files, {"category": "missing_input"}


def shell_syntax(rng: random.Random):
    version = f"{rng.randint(1, 9)}.{rng.randint(0, 20)}.{rng.randint(0, 50)}"
    name = rng.choice(WORDS)
    kind = rng.choice(["missing_fi", "missing_done", "unclosed_quote"])
    fixed = d(f"""
        #!/bin/bash
        # Packages the release: writes /app/release/VERSION and a manifest of the sources.
        set -e
        mkdir -p /app/release
        if [ -f /app/src/VERSION ]; then
          cp /app/src/VERSION /app/release/VERSION
        fi
        for f in /app/src/*.txt; do
          echo "$(basename "$f") $(wc -c < "$f")"
        done > /app/release/MANIFEST
        echo "released {name}"
        """)
    broken = {"missing_fi": fixed.replace("VERSION\nfi\n", "VERSION\n"),
              "missing_done": fixed.replace("\ndone > /app/release/MANIFEST\n", "\n"),
              "unclosed_quote": fixed.replace(f'"released {name}"', f'"released {name}')}[kind]
    assert broken != fixed, kind
    sources = {f"{w}.txt": f"{w} " * rng.randint(1, 9) + "\n" for w in rng.sample(WORDS, 3)}
    manifest = "".join(f"{n} {len(c)}\n" for n, c in sorted(sources.items()))
    files = {f"environment/files/src/{n}": (c, False) for n, c in sources.items()}
    files.update({
        "environment/files/src/VERSION": (version + "\n", False),
        "environment/files/release.sh": (broken, True),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution("/app/release.sh", fixed, then="bash /app/release.sh"), True),
        "tests/check.py": (check_py(f"""
            import subprocess
            if subprocess.run(["bash", "-n", "/app/release.sh"]).returncode != 0:
                fail("release.sh still has a syntax error")
            if read("/app/release/VERSION").strip() != "{version}":
                fail("release/VERSION is wrong")
            if read("/app/release/MANIFEST") != {manifest!r}:
                fail("release/MANIFEST is wrong")
            """), False),
    })
    instruction = ("Run the release script `/app/release.sh` so that it creates `/app/release/` with its VERSION and "
                   "MANIFEST files. The script fails; repair it without changing what it does.\n")
    return instruction, files, {"category": "script_syntax", "defect": kind}


# In this order: a legacy family's seeds are BASE_SEED + 1000 * (its position here) + instance.
LEGACY = [
    ("find-log", find_log, "file-search"),
    ("exec-bit", exec_bit, "permissions"),
    ("python-import", python_import, "python"),
    ("json-config", json_config, "config-validation"),
    ("csv-totals", csv_totals, "text"),
    ("env-setup", env_setup, "shell"),
    ("fix-bug", fix_bug, "python"),
    ("extract-member", extract_member, "archives"),
    ("crash-data", crash_data, "python"),
    ("bounded-stream", bounded_stream, "processes"),
    ("missing-input", missing_input, "data"),
    ("shell-syntax", shell_syntax, "shell"),
]
