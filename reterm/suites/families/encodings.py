"""Families of kind "encodings" (held out as novel): text in a legacy encoding, CRLF line endings or a byte-order mark
that make a given program fail. The fix is a byte-exact conversion; checks compare the bytes and the program's
output. The task dirs hold plain UTF-8 with LF only: the Dockerfile re-encodes the files at build time."""

from __future__ import annotations

import hashlib
import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d

PEOPLE = ["José Muñoz", "Zoë Brontë", "François Lefèvre", "Jürgen Groß", "Søren Ågård", "Ana Conceição",
          "Iñaki Ibáñez", "Björn Ähling", "Renée Façade", "Øyvind Næss", "Mónica Gómez", "Hélène Dupré"]
CITIES = ["Málaga", "Zürich", "Besançon", "Tromsø", "Köln", "São Paulo", "Reykjavík", "Genève"]
CP1252_ONLY = ["Seán O’Brien", "Šimon Žák", "Chloé Dubœuf", "Zoë “Zee” Hart", "Ÿvonne Lemaître",
               "Jean-Luc – Roy"]


def _h(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _recode(path: str, encoding: str = "utf-8", crlf: bool = False, bom: bool = False) -> str:
    """A Dockerfile RUN line that rewrites the UTF-8 text file `path` in `encoding`, with CRLF line ends and/or a
    byte-order mark (the task dir itself only holds plain UTF-8 with LF)."""
    text = "t.replace(chr(10), chr(13) + chr(10))" if crlf else "t"
    return (f"RUN python3 -c \"import sys; p = sys.argv[1]; t = open(p, encoding='utf-8').read(); "
            f"open(p, 'wb').write(({'chr(0xfeff) + ' if bom else ''}{text}).encode('{encoding}'))\" {path}\n")


def latin1_text(rng: random.Random):
    name = rng.choice(["customers", "members", "guests", "suppliers"])
    defect = rng.choice(["latin1", "cp1252", "utf16"])
    rows = []
    for person in rng.sample(PEOPLE, rng.randint(5, 8)):
        rows.append((person, rng.choice(CITIES[:4]), rng.randint(1, 99)))
    if defect == "cp1252":  # characters latin-1 does not have: `iconv -f latin1` turns them into control codes
        for extra in rng.sample(CP1252_ONLY, 2):
            rows.append((extra, rng.choice(CITIES[:4]), rng.randint(1, 99)))
    rows.insert(0, (f"{rng.choice(['Anne', 'Paul', 'Lena'])} {rng.choice(['Smith', 'Berg', 'Hall'])}", "Oslo", 5))
    text = "name;city;visits\n" + "".join(f"{p};{c};{v}\n" for p, c, v in rows)
    script = d(f'''
        import csv

        # {name}.csv is UTF-8, separated by ";"
        by_city = {{}}
        with open("/app/data/{name}.csv", encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f, delimiter=";"):
                by_city.setdefault(row["city"], []).append((row["name"], int(row["visits"])))
        with open("/app/out/{name}-by-city.txt", "w", encoding="utf-8") as out:
            for city in sorted(by_city):
                people = sorted(by_city[city])
                out.write(f"{{city}} ({{sum(v for _, v in people)}}): {{', '.join(n for n, _ in people)}}\\n")
        ''')
    by_city: dict = {}
    for p, c, v in rows:
        by_city.setdefault(c, []).append((p, v))
    want = "".join(f"{c} ({sum(v for _, v in ps)}): {', '.join(n for n, _ in sorted(ps))}\n"
                   for c, ps in sorted(by_city.items()))
    src = {"latin1": "latin1", "cp1252": "cp1252", "utf16": "utf-16"}[defect]
    files = {
        f"environment/files/{name}_report.py": (script, False),
        f"environment/files/data/{name}.csv": (text, False),
        "environment/Dockerfile": (DOCKERFILE + "RUN mkdir -p /app/out\n" + _recode(
            f"/app/data/{name}.csv", {"latin1": "latin-1", "utf16": "utf-16-le"}.get(defect, defect),
            bom=defect == "utf16"),
            False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            iconv -f {src} -t utf-8 /app/data/{name}.csv > /tmp/{name}.csv
            mv /tmp/{name}.csv /app/data/{name}.csv
            python3 /app/{name}_report.py
            """), True),
        "tests/check.py": (check_py(f"""
            if open("/app/data/{name}.csv", "rb").read() != {text.encode()!r}:
                fail("/app/data/{name}.csv is not the same text stored as UTF-8")
            if hashlib.sha256(open("/app/{name}_report.py", "rb").read()).hexdigest() != "{_h(script.encode())}":
                fail("the report script was modified")
            if open("/app/out/{name}-by-city.txt", "rb").read() != {want.encode()!r}:
                fail("/app/out/{name}-by-city.txt is missing or wrong")
            """), False),
    }
    instruction = (f"Run `python3 /app/{name}_report.py` to write `/app/out/{name}-by-city.txt` from "
                   f"`/app/data/{name}.csv`. Do not edit the script; keep the data's text exactly as it is meant "
                   f"(every accented letter and symbol), stored in the form the script reads.\n")
    return instruction, files, {"category": "encoding", "defect": defect}


def crlf_endings(rng: random.Random):
    name = rng.choice(WORDS)
    defect = rng.choice(["script_crlf", "shebang_python", "data_crlf", "bom_header"])
    items = {w: rng.randint(1, 90) for w in rng.sample([w for w in WORDS if w != name], rng.randint(4, 7))}
    total = sum(items.values())
    data = "".join(f"{k},{v}\n" for k, v in items.items())
    if defect in ("script_crlf", "data_crlf"):
        program = rng.choice(["#!/bin/bash\n", "#!/usr/bin/env bash\n"]) + d(f"""
            # Totals the stock counts of /app/data/{name}.txt (item,count per line).
            set -eu
            total=0
            lines=0
            while IFS=, read -r item count; do
              total=$((total + count))
              lines=$((lines + 1))
            done < /app/data/{name}.txt
            mkdir -p /app/out
            echo "{name}: $lines items, $total in stock" > /app/out/{name}.txt
            """)
    else:
        data = "id,count\n" + data
        program = d(f"""
            #!/usr/bin/env python3
            "Totals the stock counts of /app/data/{name}.csv."
            import csv
            import os

            with open("/app/data/{name}.csv", encoding="utf-8", newline="") as f:
                rows = list(csv.DictReader(f))
            total = sum(int(row["count"]) for row in rows if row["id"])
            os.makedirs("/app/out", exist_ok=True)
            with open("/app/out/{name}.txt", "w") as f:
                f.write(f"{name}: {{len(rows)}} items, {{total}} in stock\\n")
            """)
    want = f"{name}: {len(items)} items, {total} in stock\n"
    dpath = f"/app/data/{name}.{'txt' if defect in ('script_crlf', 'data_crlf') else 'csv'}"
    fix = {"script_crlf": f"sed -i 's/\\r$//' /app/bin/{name}", "shebang_python": f"sed -i 's/\\r$//' /app/bin/{name}",
           "data_crlf": f"sed -i 's/\\r$//' {dpath}", "bom_header": f"sed -i '1s/^\\xEF\\xBB\\xBF//' {dpath}"}[defect]
    files = {
        f"environment/files/bin/{name}": (program, True),
        dpath.replace("/app/", "environment/files/", 1): (data, False),
        "environment/Dockerfile": (DOCKERFILE + _recode(
            dpath if defect in ("data_crlf", "bom_header") else f"/app/bin/{name}", crlf=defect != "bom_header",
            bom=defect == "bom_header"), False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\n{fix}\n/app/bin/{name}\n", True),
        "tests/check.py": (check_py(f"""
            if open("/app/bin/{name}", "rb").read() != {program.encode()!r}:
                fail("/app/bin/{name} is not the original program with working line endings")
            if not os.access("/app/bin/{name}", os.X_OK):
                fail("/app/bin/{name} is no longer executable")
            if open({dpath!r}, "rb").read() != {data.encode()!r}:
                fail("{dpath} does not hold the original data in a form the program reads")
            if read("/app/out/{name}.txt") != {want!r}:
                fail("/app/out/{name}.txt is missing or wrong")
            """), False),
    }
    instruction = (f"Run `/app/bin/{name}` (as that command) so that it writes `/app/out/{name}.txt` from `{dpath}`. "
                   f"It fails: fix what stops it without changing any command of the program or any value of the "
                   f"data (both must keep every character they are meant to have).\n")
    return instruction, files, {"category": "line_endings" if "crlf" in defect else "encoding", "defect": defect}


FAMILIES = [
    Family("latin1-text", latin1_text, kind="encodings"),
    Family("crlf-endings", crlf_endings, kind="encodings"),
]
