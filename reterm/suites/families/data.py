"""Families of kind "data": CSV, JSON, YAML and INI data (see reterm/suites/families/__init__.py)."""

from __future__ import annotations

import configparser
import csv
import io
import json
import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha, write_file_solution

CATEGORIES = ["books", "garden", "kitchen", "music", "office", "sports", "toys", "travel", "tools", "games"]
FIRST = ["Ana", "Ben", "Chloe", "Dev", "Eli", "Fay", "Gus", "Ines", "Jon", "Kim", "Lars", "Mei"]
LAST = ["Okafor", "Silva", "Novak", "Tanaka", "Berg", "Rossi", "Dubois", "Kowalski", "Haddad", "Lund"]
NOTES = ["gift wrap", "leave at the door", "call first", "fragile", "deliver after 5pm", "no invoice", "rush"]


def csv_quoted(rng: random.Random):
    # Names and notes are quoted fields holding commas (and, by defect, newlines or doubled quotes), so splitting
    # lines on commas (awk -F, / cut -d,) shifts the columns of some rows only: the totals come out wrong.
    defect = rng.choice(["comma", "newline", "quote"])
    while True:
        cols = rng.sample(["customer", "category", "note", "amount"], 4)
        if cols.index("customer") < min(cols.index("category"), cols.index("amount")) and cols[-1] != "amount":
            break
    cols = ["id"] + cols
    cats = rng.sample(CATEGORIES, rng.randint(3, 5))
    buf, agg = io.StringIO(), {}
    out = csv.writer(buf, lineterminator="\n")
    out.writerow(cols)
    for i in range(rng.randint(12, 24)):
        first, last = rng.choice(FIRST), rng.choice(LAST)
        note = rng.choice(NOTES)
        if rng.random() < 0.4:
            note += ", " + rng.choice(NOTES)
        if defect == "newline" and rng.random() < 0.4:
            note += "\n" + rng.choice(NOTES)
        if defect == "quote" and rng.random() < 0.4:
            note = f'"{note}" said {first}'
        cents, cat = rng.randint(100, 50000), rng.choice(cats)
        n, t = agg.get(cat, (0, 0))
        agg[cat] = (n + 1, t + cents)
        row = {"id": 1000 + i, "customer": rng.choice([f"{last}, {first}", f"{first} {last}"]), "category": cat,
               "note": note, "amount": f"{cents // 100}.{cents % 100:02d}"}
        out.writerow([row[c] for c in cols])
    data = buf.getvalue()
    name = rng.choice(["orders", "sales", "invoices", "purchases"])
    want = "category,orders,total\n" + "".join(f"{c},{n},{t // 100}.{t % 100:02d}\n"
                                               for c, (n, t) in sorted(agg.items()))
    files = {
        f"environment/files/data/{name}.csv": (data, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            python3 - <<'EOF'
            import csv
            from decimal import Decimal
            agg = {{}}
            with open("/app/data/{name}.csv", newline="") as f:
                for row in csv.DictReader(f):
                    n, t = agg.get(row["category"], (0, Decimal(0)))
                    agg[row["category"]] = (n + 1, t + Decimal(row["amount"]))
            with open("/app/summary.csv", "w") as f:
                f.write("category,orders,total\\n")
                for c, (n, t) in sorted(agg.items()):
                    f.write(f"{{c}},{{n}},{{t:.2f}}\\n")
            EOF
            """), True),
        "tests/check.py": (check_py(f"""
            got = read("/app/summary.csv").replace("\\r\\n", "\\n")
            want = {want!r}
            if got.rstrip("\\n") != want.rstrip("\\n"):
                fail(f"summary.csv is {{got!r}}, expected {{want!r}}")
            if hashlib.sha256(read("/app/data/{name}.csv").encode()).hexdigest() != "{sha(data)}":
                fail("the data file was modified")
            """), False),
    }
    instruction = (f"`/app/data/{name}.csv` is a CSV file with a header row. Write `/app/summary.csv` with the header "
                   f"`category,orders,total` and one line per category: the category, how many rows it has and the sum "
                   f"of their `amount` with exactly two decimals; lines sorted by category. Do not modify the data.\n")
    return instruction, files, {"category": "naive_parsing", "defect": defect}


REGIONS = ["north", "south", "east", "west", "central", "coast", "alpine", "delta"]


def json_merge(rng: random.Random):
    # Most exports are {"region", "hosts": [...]}; one breaks the shape the obvious jq/python assumes: hosts null
    # ("Cannot iterate over null"), a single host object instead of a list ("Cannot index string with ..."), a file
    # holding a list of exports ("Cannot index array with ...") or cpus given as strings ("cannot be added").
    defect = rng.choice(["null_hosts", "single_host", "string_cpus", "wrapped"])
    regions = rng.sample(REGIONS, rng.randint(4, 5))
    exports, totals, names = [], {}, []
    for i, r in enumerate(regions):
        hosts = []
        empty = defect == "null_hosts" and i == len(regions) - 1
        for w in ([] if empty else rng.sample(WORDS, 1 if defect == "single_host" and i == 1 else rng.randint(2, 4))):
            hosts.append({"name": f"{r}-{w}", "cpus": rng.choice([1, 2, 4, 8, 16]),
                          "tags": rng.sample(["web", "db", "batch", "edge"], rng.randint(0, 2))})
            names.append(hosts[-1]["name"])
        totals[r] = sum(h["cpus"] for h in hosts)
        if defect == "string_cpus" and i in (0, 2):
            hosts[-1] = {**hosts[-1], "cpus": str(hosts[-1]["cpus"])}
        exports.append({"region": r, "exported": f"2024-05-{rng.randint(1, 28):02d}",
                        "hosts": None if empty else hosts[0] if defect == "single_host" and i == 1 else hosts})
    if defect == "wrapped":  # the last two regions came in one combined export
        exports[-2:] = [exports[-2:]]
    rng.shuffle(exports)
    docs = {f"/app/exports/{(e[0] if isinstance(e, list) else e)['region']}{'-batch' * isinstance(e, list)}.json":
            json.dumps(e, indent=2) + "\n" for e in exports}
    want = {"regions": totals, "hosts": len(names), "names": sorted(names)}
    files = {"environment/files" + p[4:]: (t, False) for p, t in docs.items()}
    files.update({
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d("""
            #!/bin/bash
            set -e
            python3 - <<'EOF'
            import glob, json
            regions, names = {}, []
            for p in sorted(glob.glob("/app/exports/*.json")):
                with open(p) as f:
                    doc = json.load(f)
                for e in doc if isinstance(doc, list) else [doc]:
                    hosts = e["hosts"] or []
                    hosts = [hosts] if isinstance(hosts, dict) else hosts
                    regions[e["region"]] = regions.get(e["region"], 0) + sum(int(h["cpus"]) for h in hosts)
                    names += [h["name"] for h in hosts]
            with open("/app/summary.json", "w") as f:
                json.dump({"regions": regions, "hosts": len(names), "names": sorted(names)}, f, indent=2)
            EOF
            """), True),
        "tests/check.py": (check_py(f"""
            try:
                got = json.loads(read("/app/summary.json"))
            except ValueError as e:
                fail(f"summary.json is not JSON: {{e}}")
            want = {want!r}
            if got != want:
                fail(f"summary.json holds {{got}}, expected {{want}}")
            for path, h in {({p: sha(t) for p, t in docs.items()})!r}.items():
                if hashlib.sha256(read(path).encode()).hexdigest() != h:
                    fail(f"{{path}} was modified")
            """), False),
    })
    instruction = ("The JSON files in `/app/exports/` are host inventories exported per region. Write "
                   "`/app/summary.json`, a JSON object with `regions` (each region name mapped to the total `cpus` "
                   "of its hosts as a number, 0 for a region without hosts), `hosts` (the number of hosts in all) and "
                   "`names` (every host name, sorted). Do not modify the exports.\n")
    return instruction, files, {"category": "data_shape", "defect": defect}


MINIYAML = d('''
    """A strict reader for the small YAML subset this app's settings use: `key: value` lines, mappings nested by
    two spaces per level, `#` comments. Every error names its line."""


    class ConfigError(Exception):
        pass


    def scalar(text):
        if text in ("true", "false"):
            return text == "true"
        if text.lstrip("-").isdigit():
            return int(text)
        if len(text) >= 2 and text[0] == text[-1] == '"':
            return text[1:-1]
        return text


    def load(path):
        root, first = {}, {}
        stack = [(0, root)]  # (indentation of its keys, mapping)
        opened = None  # a `key:` whose indented block must follow
        with open(path) as f:
            lines = f.read().splitlines()
        for n, line in enumerate(lines, 1):
            body = line.strip()
            if not body or body.startswith("#"):
                continue
            lead = line[:len(line) - len(line.lstrip(" \\t"))]
            if "\\t" in lead:
                raise ConfigError(f"line {n}: tab character in indentation")
            indent = len(lead)
            if indent % 2:
                raise ConfigError(f"line {n}: indentation of {indent} spaces is not a multiple of 2")
            if opened and indent != stack[-1][0]:
                raise ConfigError(f"line {n}: expected the keys of '{opened}' indented by {stack[-1][0]} spaces")
            if indent > stack[-1][0]:
                raise ConfigError(f"line {n}: unexpected indentation")
            while indent < stack[-1][0]:
                stack.pop()
            opened = None
            key, colon, value = body.partition(":")
            if not colon or not key or " " in key:
                raise ConfigError(f"line {n}: expected 'key: value', found {body!r}")
            if value and not value.startswith(" "):
                raise ConfigError(f"line {n}: missing space after ':' in {body!r}")
            mapping = stack[-1][1]
            if key in mapping:
                raise ConfigError(f"line {n}: duplicate key '{key}' (first set on line {first[id(mapping), key]})")
            first[id(mapping), key] = n
            if value.strip():
                mapping[key] = scalar(value.strip())
            else:
                mapping[key] = {}
                stack.append((indent + 2, mapping[key]))
                opened = key
        if opened:
            raise ConfigError(f"line {len(lines)}: '{opened}' has no keys")
        return root
    ''')

YAML_APP = d("""
    import json
    import os
    import sys

    from miniyaml import ConfigError, load


    def flat(prefix, mapping):
        for k, v in mapping.items():
            if isinstance(v, dict):
                yield from flat(prefix + k + ".", v)
            else:
                yield prefix + k, v


    try:
        cfg = load("/app/config.yaml")
    except ConfigError as e:
        sys.exit(f"error: /app/config.yaml: {e}")
    os.makedirs("/app/out", exist_ok=True)
    with open("/app/out/settings.txt", "w") as f:
        for key, value in sorted(flat("", cfg)):
            f.write(f"{key}={json.dumps(value)}\\n")
    print("settings written")
    """)

YAML_SECTIONS = {
    "server": lambda r: {"host": r.choice(["0.0.0.0", "127.0.0.1"]), "port": r.randint(2000, 9999),
                         "workers": r.randint(1, 16)},
    "database": lambda r: {"name": r.choice(WORDS) + "_db", "user": r.choice(WORDS), "timeout": r.randint(5, 60)},
    "cache": lambda r: {"backend": r.choice(["memory", "disk"]), "ttl": r.randint(30, 3600), "enabled": True},
    "logging": lambda r: {"level": r.choice(["info", "debug", "warning"]), "file": "/app/logs/app.log"},
    "storage": lambda r: {"path": "/app/" + r.choice(WORDS), "max_mb": r.randint(64, 4096), "compress": False},
}


def yaml_config(rng: random.Random):
    # The loader stops at the first error, so the two defects are found one run after the other.
    cfg = {"name": rng.choice(WORDS)}
    for s in rng.sample(sorted(YAML_SECTIONS), rng.randint(3, 4)):
        cfg[s] = YAML_SECTIONS[s](rng)
    sub = rng.choice([s for s in cfg if s != "name"])
    cfg[sub]["limits"] = {"max_items": rng.randint(10, 500), "burst": rng.randint(1, 20)}
    lines = []  # [indent, key, value or None for a block]

    def emit(m, indent):
        for k, v in m.items():
            lines.append([indent, k, None if isinstance(v, dict) else v])
            if isinstance(v, dict):
                emit(v, indent + 2)
    emit(cfg, 0)
    good = [" " * ind + k + ":" + ("" if v is None else " " + json.dumps(v).strip('"')) for ind, k, v in lines]
    broken = list(good)
    nested = [i for i, ln in enumerate(lines) if ln[0] > 0 and ln[2] is not None]
    defects = rng.sample(["tab", "odd_indent", "no_space", "duplicate"], 2)

    def block_end(i):  # the index after line i's later siblings (and their blocks)
        j = i + 1
        while j < len(lines) and lines[j][0] >= lines[i][0]:
            j += 1
        return j
    while True:  # an odd indentation must not follow a deeper line: 3 spaces there could mean 2 or 4
        spots = dict(zip(defects, rng.sample(nested, 2)))
        odd = spots.get("odd_indent")
        if odd is None or (lines[odd - 1][0] <= lines[odd][0] and block_end(spots.get("duplicate", odd)) != odd):
            break
    for defect, i in sorted(spots.items(), key=lambda p: -p[1]):  # from the bottom: indexes stay valid
        if defect == "tab":
            broken[i] = "\t" * (lines[i][0] // 2) + broken[i].lstrip(" ")
        elif defect == "odd_indent":
            broken[i] = " " + broken[i]
        elif defect == "no_space":
            broken[i] = broken[i].replace(": ", ":", 1)
        else:  # repeat the line after its later siblings, still inside the same block
            broken.insert(block_end(i), good[i])
    conf = "# settings for the " + cfg["name"] + " service\n" + "\n".join(broken) + "\n"
    fixed = "# settings for the " + cfg["name"] + " service\n" + "\n".join(good) + "\n"

    def flat(prefix, m):
        for k, v in m.items():
            yield from flat(prefix + k + ".", v) if isinstance(v, dict) else [(prefix + k, v)]
    want = "".join(f"{k}={json.dumps(v)}\n" for k, v in sorted(flat("", cfg)))
    files = {
        "environment/files/config.yaml": (conf, False),
        "environment/files/miniyaml.py": (MINIYAML, False),
        "environment/files/app.py": (YAML_APP, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution("/app/config.yaml", fixed, then="python3 /app/app.py"), True),
        "tests/check.py": (check_py(f"""
            ns = {{}}
            exec({MINIYAML!r}, ns)
            try:
                cfg = ns["load"]("/app/config.yaml")
            except (ns["ConfigError"], OSError) as e:
                fail(f"config.yaml does not load: {{e}}")
            if cfg != {cfg!r}:
                fail(f"settings changed: {{cfg}}")
            if read("/app/out/settings.txt") != {want!r}:
                fail("out/settings.txt is wrong")
            for path, h in [("/app/app.py", "{sha(YAML_APP)}"), ("/app/miniyaml.py", "{sha(MINIYAML)}")]:
                if hashlib.sha256(read(path).encode()).hexdigest() != h:
                    fail(f"{{path}} was modified")
            """), False),
    }
    instruction = ("`python3 /app/app.py` reads its settings from `/app/config.yaml` and writes "
                   "`/app/out/settings.txt`, but it stops with an error. Repair the config file so that the app runs, "
                   "then run it. Every setting must keep its value; do not edit `app.py` or its loader "
                   "`miniyaml.py`.\n")
    return instruction, files, {"category": "config_syntax", "defect": "+".join(sorted(defects))}


INI_SECTIONS = {
    "server": lambda r: {"host": r.choice(["0.0.0.0", "127.0.0.1", "localhost"]), "port": str(r.randint(2000, 9999)),
                         "workers": str(r.randint(1, 16))},
    "database": lambda r: {"host": r.choice(WORDS) + ".db.lan", "port": str(r.randint(3000, 6000)),
                           "name": r.choice(WORDS), "timeout": str(r.randint(5, 60))},
    "cache": lambda r: {"backend": r.choice(["memory", "disk", "redis"]), "ttl": str(r.randint(30, 3600)),
                        "size": str(r.randint(16, 512))},
    "logging": lambda r: {"level": r.choice(["info", "debug", "warning"]), "file": "/app/logs/service.log",
                          "rotate": r.choice(["yes", "no"])},
    "auth": lambda r: {"provider": r.choice(["local", "ldap", "oauth"]), "timeout": str(r.randint(5, 120)),
                       "realm": r.choice(WORDS)},
}


def ini_merge(rng: random.Random):
    # configparser (strict) refuses the file: a section given twice (DuplicateSectionError, then, once the second
    # header is simply deleted, DuplicateOptionError), an option given twice (DuplicateOptionError), or a header
    # without one of its brackets (MissingSectionHeaderError on the first section, ParsingError later on).
    defect = rng.choice(["dup_section", "dup_option", "bad_header"])
    name = rng.choice(WORDS)
    secs = rng.sample(sorted(INI_SECTIONS), rng.randint(3, 4))
    first = {s: INI_SECTIONS[s](rng) for s in secs}
    final = {s: dict(o) for s, o in first.items()}
    blocks = [[f"[{s}]"] + [f"{k} = {v}" for k, v in o.items()] for s, o in first.items()]
    if defect == "dup_section":
        b = rng.randrange(len(blocks))
        s, extra = secs[b], INI_SECTIONS[secs[b]](rng)
        keys = rng.sample(sorted(extra), 2)
        final[s].update({k: extra[k] for k in keys})
        blocks.insert(b + 1, ["# overrides for this site", f"[{s}]"] + [f"{k} = {extra[k]}" for k in keys])
    elif defect == "dup_option":
        b = rng.randrange(len(blocks))
        s = secs[b]
        k = rng.choice(sorted(set(first[s]) - {"file"}))
        v = INI_SECTIONS[s](rng)[k]
        while v == first[s][k]:
            v = INI_SECTIONS[s](rng)[k]
        final[s][k] = v
        blocks[b].insert(rng.randint(blocks[b].index(f"{k} = {first[s][k]}") + 1, len(blocks[b])), f"{k} = {v}")
    else:
        b = rng.randrange(len(blocks))
        blocks[b][0] = rng.choice([f"[{secs[b]}", f"{secs[b]}]"])
    ini = f"# {name} service settings\n" * (defect != "bad_header" or rng.random() < 0.5)
    ini += "\n\n".join("\n".join(bl) for bl in blocks) + "\n"
    good = "\n\n".join("\n".join([f"[{s}]"] + [f"{k} = {v}" for k, v in o.items()]) for s, o in final.items()) + "\n"
    render = d(f"""
        import configparser
        import os

        cfg = configparser.ConfigParser(interpolation=None)
        with open("/app/etc/{name}.ini") as f:
            cfg.read_file(f)
        os.makedirs("/app/out", exist_ok=True)
        with open("/app/out/{name}.env", "w") as f:
            for section in {secs!r}:
                for key, value in sorted(cfg[section].items()):
                    f.write(f"{{section.upper()}}_{{key.upper()}}={{value}}\\n")
        print("wrote /app/out/{name}.env")
        """)
    want = "".join(f"{s.upper()}_{k.upper()}={v}\n" for s in secs for k, v in sorted(final[s].items()))
    probe = configparser.ConfigParser(interpolation=None)
    probe.read_string(good)
    assert {s: dict(probe[s]) for s in probe.sections()} == final
    files = {
        f"environment/files/etc/{name}.ini": (ini, False),
        "environment/files/render.py": (render, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution(f"/app/etc/{name}.ini", good, then="python3 /app/render.py"), True),
        "tests/check.py": (check_py(f"""
            import configparser
            cfg = configparser.ConfigParser(interpolation=None)
            try:
                cfg.read_string(read("/app/etc/{name}.ini"))
            except configparser.Error as e:
                fail(f"{name}.ini still does not parse: {{e}}")
            got = {{s: dict(cfg[s]) for s in cfg.sections()}}
            settings = {final!r}
            if got != settings:
                fail(f"the settings are {{got}}, expected {{settings}}")
            if read("/app/out/{name}.env") != {want!r}:
                fail("out/{name}.env is wrong")
            if hashlib.sha256(read("/app/render.py").encode()).hexdigest() != "{sha(render)}":
                fail("render.py was modified")
            """), False),
    }
    instruction = (f"`python3 /app/render.py` fails to read its settings file `/app/etc/{name}.ini`, which was "
                   f"pieced together by hand. Repair the settings file, then run the script so that it writes "
                   f"`/app/out/{name}.env`. Keep every setting's value; where a setting is given more than once in a "
                   f"section, the later value is the one to keep. Do not edit `render.py`.\n")
    return instruction, files, {"category": "config_syntax", "defect": defect}


FAMILIES = [
    Family("csv-quoted", csv_quoted, kind="data"),
    Family("json-merge", json_merge, kind="data"),
    Family("yaml-config", yaml_config, kind="data", fixes=2),
    Family("ini-merge", ini_merge, kind="data"),
]
