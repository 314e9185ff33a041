"""Families of kind `sqlite`: SQLite databases (queries, migrations, imports). Held out as novel: no training family
does this kind of work. The databases are built by the Dockerfile (`sqlite3 /app/x.db < /app/schema.sql`), so the
agent meets a real database whose schema it has to read."""

from __future__ import annotations

import csv
import io
import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha


def _sql(v) -> str:
    return "NULL" if v is None else str(v) if isinstance(v, int) else "'" + str(v).replace("'", "''") + "'"


def _build(db: str, schema: str) -> tuple[str, tuple]:
    """The Dockerfile that builds /app/<db> from schema.sql (then removes the script), and its file entry."""
    return (DOCKERFILE + f"RUN sqlite3 /app/{db} < /app/schema.sql && rm /app/schema.sql\n",
            ("environment/files/schema.sql", (schema, False)))


# theme: what the rows are, the obvious (guessed) table / entity / measure names, the real alternatives, entities
REPORT_THEMES = [
    dict(desc="the shop's orders (one row per order: its sales region and amount)", obvious="orders", entity="region",
         measure="amount", unit="orders", tables=["order_lines", "shop_orders", "tx_orders"],
         ecols=["sales_region", "rgn", "region_code"], mcols=["amount_eur", "total_price", "amt"],
         values=["north", "south", "east", "west", "central", "coast", "islands"]),
    dict(desc="daily page-view counts (one row per site and day)", obvious="page_views", entity="site",
         measure="views", unit="days", tables=["page_hits", "access_log", "visits_v2"],
         ecols=["host", "site_name", "domain"], mcols=["hit_count", "n_views", "views_total"],
         values=[f"{w}.test" for w in WORDS]),
    dict(desc="outgoing shipments (one row per shipment: its warehouse and weight in kg)", obvious="shipments",
         entity="warehouse", measure="weight", unit="shipments", tables=["parcels", "dispatches", "consignments"],
         ecols=["depot", "wh_code", "origin_wh"], mcols=["weight_kg", "kg", "gross_kg"],
         values=["ams", "ber", "cdg", "dub", "fra", "lis", "mad", "osl", "prg"]),
]
AGGS = {"sum": ("SUM({m})", "the total {measure}"), "count": ("COUNT(*)", "the number of {unit}"),
        "max": ("MAX({m})", "the largest single {measure}")}


def sqlite_report(rng: random.Random):
    th = rng.choice(REPORT_THEMES)
    defect = rng.choice(["table_name", "column_name", "join"])
    agg = rng.choice(list(AGGS))
    by_value = rng.random() < 0.6
    db = rng.choice(["shop", "stats", "ops", "warehouse", "metrics"]) + rng.choice(["", "_prod", "_2024"]) + ".db"
    table = rng.choice(th["tables"]) if defect == "table_name" else th["obvious"]
    ecol = th["entity"] if defect == "table_name" else rng.choice(th["ecols"])
    mcol = rng.choice(th["mcols"]) if defect != "table_name" else th["measure"]
    while True:  # distinct values when ordered by value, so the order is unambiguous
        ents = rng.sample(th["values"], rng.randint(3, 5))
        names = ents + [rng.choice(ents) for _ in range(rng.randint(9, 24))]
        rng.shuffle(names)
        rows = [(e, rng.randint(1, 500)) for e in names]
        stats = {e: [m for x, m in rows if x == e] for e in ents}
        counts = sorted({len(ms) for ms in stats.values()})
        k = rng.choice(counts[1:]) if len(counts) > 1 and rng.random() < 0.5 else 0
        value = {"sum": sum, "count": len, "max": max}[agg]
        out = {e: value(ms) for e, ms in stats.items() if len(ms) >= k}
        if len(out) >= 2 and (not by_value or len(set(out.values())) == len(out)):
            break
    order = sorted(out, key=lambda e: (-out[e], e)) if by_value else sorted(out)
    want = "".join(f"{e},{out[e]}\n" for e in order)
    if defect == "join":
        lookup, lname = th["entity"] + "s", rng.choice(["name", "label", "code"])
        ids = {e: i for i, e in enumerate(rng.sample(ents, len(ents)), 1)}
        schema = (f"CREATE TABLE {lookup} (id INTEGER PRIMARY KEY, {lname} TEXT NOT NULL);\n"
                  + "".join(f"INSERT INTO {lookup} VALUES ({i}, {_sql(e)});\n" for e, i in ids.items())
                  + f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, day TEXT, {th['entity']}_id INTEGER "
                    f"REFERENCES {lookup}(id), {mcol} INTEGER NOT NULL);\n")
        src = f"{table} t JOIN {lookup} l ON l.id = t.{th['entity']}_id"
        ecol_q, row_vals = f"l.{lname}", lambda e: ids[e]
    else:
        schema = (f"CREATE TABLE {table} (id INTEGER PRIMARY KEY, day TEXT, {ecol} TEXT NOT NULL, "
                  f"{mcol} INTEGER NOT NULL);\n")
        src, ecol_q, row_vals = table, ecol, _sql
    schema += "".join(f"INSERT INTO {table} VALUES ({i}, '2024-03-{i % 28 + 1:02d}', {row_vals(e)}, {m});\n"
                      for i, (e, m) in enumerate(rows, 1))
    sel = AGGS[agg][0].format(m=mcol)
    query = (f"SELECT {ecol_q}, {sel} FROM {src} GROUP BY {ecol_q}" + (f" HAVING COUNT(*) >= {k}" if k else "")
             + (f" ORDER BY {sel} DESC, {ecol_q}" if by_value else f" ORDER BY {ecol_q}"))
    dockerfile, schema_file = _build(db, schema)
    what = AGGS[agg][1].format(measure=th["measure"], unit=th["unit"])
    files = {
        "environment/Dockerfile": (dockerfile, False), schema_file[0]: schema_file[1],
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            sqlite3 -separator , /app/{db} "{query};" > /app/report.csv
            """), True),
        "tests/check.py": (check_py(f"""
            import sqlite3
            got = read("/app/report.csv").splitlines()
            if got != {want.splitlines()!r}:
                fail(f"report.csv is {{got!r}}, expected {want.splitlines()!r}")
            try:
                con = sqlite3.connect("file:/app/{db}?mode=ro", uri=True)
                n, total = con.execute("SELECT COUNT(*), SUM({mcol}) FROM {table}").fetchone()
            except sqlite3.Error as e:
                fail(f"cannot read the database: {{e}}")
            if (n, total) != ({len(rows)}, {sum(m for _, m in rows)}):
                fail("the database was modified")
            """), False),
    }
    instruction = (f"The SQLite database `/app/{db}` records {th['desc']}. Write `/app/report.csv` with one line "
                   f"`{th['entity']},value` per {th['entity']}" + (f" that has at least {k} {th['unit']}" if k else "")
                   + f", where value is {what} (an integer), sorted "
                   + ("by value from largest to smallest (ties by name)" if by_value else f"by {th['entity']} name")
                   + ". No header line, no spaces. Do not modify the database.\n")
    return instruction, files, {"category": "unknown_schema", "defect": defect}


# table, label column, integer column, nullable text column, what a missing text becomes
MIG_TABLES = [("products", "name", "stock", "supplier", "unknown"), ("customers", "name", "orders", "email", "none"),
              ("devices", "hostname", "uptime_days", "owner", "ops"), ("tickets", "title", "priority", "assignee",
                                                                        "unassigned")]


def sqlite_migration(rng: random.Random):
    t, label, intc, textc, fallback = rng.choice(MIG_TABLES)
    defect = rng.choice(["not_null_default", "duplicate_column", "not_null_failed"])
    db, n = rng.choice(["app", "inventory", "main", "crm"]) + ".db", rng.randint(2, 40)
    rows = [(i, w, rng.randint(0, 99), None if rng.random() < 0.35 else f"{rng.choice(WORDS)}{rng.randint(1, 99)}")
            for i, w in enumerate(rng.sample(WORDS, rng.randint(5, 9)), 1)]
    rows[0], rows[1] = rows[0][:3] + (None,), rows[1][:3] + (rows[1][3] or "x1",)
    cols = [("id", "INTEGER", 0, 1), (label, "TEXT", 1, 0), (intc, "INTEGER", 1, 0), (textc, "TEXT", 0, 0)]
    defn = f"(id INTEGER PRIMARY KEY, {label} TEXT NOT NULL, {intc} INTEGER NOT NULL, {textc} TEXT"
    schema = (f"CREATE TABLE {t} {defn});\n" + "".join(f"INSERT INTO {t} VALUES ({', '.join(map(_sql, r))});\n"
                                                        for r in rows)
              + f"CREATE TABLE schema_version (version INTEGER NOT NULL);\n"
                f"INSERT INTO schema_version VALUES ({n - 1});\n")
    index = ""
    if defect == "not_null_default":
        new, th = rng.choice(["tier", "band", "grade"]), rng.randint(20, 80)
        hi, lo = rng.choice([("high", "low"), ("gold", "basic"), ("hot", "cold")])
        name, index = f"classify_{t}", f"idx_{t}_{new}"
        body = d(f"""
            ALTER TABLE {t} ADD COLUMN {new} TEXT NOT NULL;
            UPDATE {t} SET {new} = CASE WHEN {intc} >= {th} THEN '{hi}' ELSE '{lo}' END;
            CREATE INDEX {index} ON {t} ({new});
            """)
        fixed = body.replace("TEXT NOT NULL;", f"TEXT NOT NULL DEFAULT '{lo}';")
        cols.append((new, "TEXT", 1, 0))
        final = [r + (hi if r[2] >= th else lo,) for r in rows]
    elif defect == "duplicate_column":
        c1, c2, k = rng.choice(["score", "weight", "points"]), rng.choice(["code", "tag", "slug"]), rng.randint(2, 9)
        name, schema = f"add_{c1}_{c2}", schema + f"ALTER TABLE {t} ADD COLUMN {c1} INTEGER;\n"
        body = d(f"""
            ALTER TABLE {t} ADD COLUMN {c1} INTEGER;
            ALTER TABLE {t} ADD COLUMN {c2} TEXT;
            UPDATE {t} SET {c1} = {intc} * {k}, {c2} = upper({label});
            """)
        fixed = body.split("\n", 1)[1]
        cols += [(c1, "INTEGER", 0, 0), (c2, "TEXT", 0, 0)]
        final = [r + (r[2] * k, r[1].upper()) for r in rows]
    else:
        name = f"require_{textc}"
        body = d(f"""
            -- every {t} row must have a value in {textc}; rows without one get '{fallback}'
            CREATE TABLE {t}_new {defn} NOT NULL);
            INSERT INTO {t}_new (id, {label}, {intc}, {textc}) SELECT id, {label}, {intc}, {textc} FROM {t};
            DROP TABLE {t};
            ALTER TABLE {t}_new RENAME TO {t};
            """)
        fixed = body.replace(f"{intc}, {textc} FROM", f"{intc}, COALESCE({textc}, '{fallback}') FROM")
        cols[3] = (textc, "TEXT", 1, 0)
        final = [r[:3] + (r[3] or fallback,) for r in rows]
    mig = f"migrations/{n:03d}_{name}.sql"
    wrap = lambda b: (f"-- migration {n:03d}: {name}\n.bail on\nBEGIN;\n{b}"  # noqa: E731
                      f"UPDATE schema_version SET version = {n};\nCOMMIT;\n")
    dockerfile, schema_file = _build(db, schema)
    spec = ", ".join(f"`{c} {ty}{' PRIMARY KEY' if pk else ''}{' NOT NULL' if nn else ''}`" for c, ty, nn, pk in cols)
    files = {
        "environment/Dockerfile": (dockerfile, False), schema_file[0]: schema_file[1],
        f"environment/files/{mig}": (wrap(body), False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            cat > /app/{mig} <<'EOF'
            """) + wrap(fixed) + f"EOF\nsqlite3 /app/{db} < /app/{mig}\n", True),
        "tests/check.py": (check_py(f"""
            import sqlite3
            if not os.path.isfile("/app/{db}"):
                fail("/app/{db} is missing")
            try:
                con = sqlite3.connect("file:/app/{db}?mode=ro", uri=True)
                cols = [(r[1], r[2].upper(), r[3], r[5]) for r in con.execute("PRAGMA table_info({t})")]
                rows = con.execute("SELECT * FROM {t} ORDER BY id").fetchall()
                tables = sorted(r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))
                version = con.execute("SELECT version FROM schema_version").fetchall()
                indexes = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'index'")]
            except sqlite3.Error as e:
                fail(f"cannot read the database: {{e}}")
            if cols != {cols!r}:
                fail(f"{t} has the columns {{cols}}, expected {cols!r}")
            if rows != {final!r}:
                fail(f"{t} holds {{rows}}, expected {final!r}")
            if tables != {sorted([t, 'schema_version'])!r}:
                fail(f"the database has the tables {{tables}}")
            if version != [({n},)]:
                fail(f"schema_version is {{version}}, expected {n}: the migration was not applied")
            if {index!r} and {index!r} not in indexes:
                fail("the migration's index {index} is missing")
            """), False),
    }
    instruction = (f"Apply the migration `/app/{mig}` to the SQLite database `/app/{db}` with the sqlite3 "
                   f"command-line tool. It fails as written: fix the migration file, then apply it. Afterwards the "
                   f"table `{t}` must have exactly the columns {spec} (in this order), every row it had must still be "
                   f"there (its values kept, apart from what the migration sets), and `schema_version` must say {n}.\n")
    return instruction, files, {"category": "migration_error", "defect": defect}


# table, key column (and its prefix), text column, integer columns; how a unit-decorated last column is written
IMPORT_THEMES = [("catalog", "parts", "sku", "P-", "name", "qty", "price", "${}"),
                 ("club", "members", "login", "u_", "full_name", "age", "points", "{} pts"),
                 ("weather", "stations", "code", "ST", "city", "altitude", "rain_mm", "{}mm")]


def sqlite_import(rng: random.Random):
    base, t, key, prefix, text, i1, i2, unit = rng.choice(IMPORT_THEMES)
    defect = rng.choice(["separator", "column_order", "unit"])
    db, csvname = base + rng.choice(["", "_main", "_v2"]) + ".db", rng.choice(WORDS) + "_export.csv"
    keys = rng.sample(range(100, 999), rng.randint(9, 15))
    rows = [(f"{prefix}{k}", rng.choice(WORDS).title() + (f", {rng.choice(WORDS)}" if rng.random() < 0.3 else ""),
             rng.randint(0, 500), rng.randint(1, 900)) for k in keys]
    nold = rng.randint(2, 3)
    old, new = rows[:nold], rows[nold:]
    cols = [key, text, i1, i2]
    order = list(range(4))
    sep = rng.choice([";", "\t"]) if defect == "separator" else ","
    if defect == "column_order":
        while order == [0, 1, 2, 3] or not {order[2], order[3]} & {0, 1}:
            rng.shuffle(order)
    buf = io.StringIO()
    w = csv.writer(buf, delimiter=sep, lineterminator="\n")
    w.writerow([cols[j] for j in order])
    for r in new:
        w.writerow([unit.format(r[j]) if defect == "unit" and j == 3 else r[j] for j in order])
    data = buf.getvalue()
    create = (f"CREATE TABLE {t} ({key} TEXT PRIMARY KEY, {text} TEXT NOT NULL, {i1} INTEGER NOT NULL, "
              f"{i2} INTEGER NOT NULL) STRICT")
    schema = create + ";\n" + "".join(f"INSERT INTO {t} VALUES ({', '.join(map(_sql, r))});\n" for r in old)
    dockerfile, schema_file = _build(db, schema)
    want = sorted(old + new)
    files = {
        "environment/Dockerfile": (dockerfile, False), schema_file[0]: schema_file[1],
        f"environment/files/data/{csvname}": (data, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            python3 - <<'EOF'
            import csv, re, sqlite3
            with open("/app/data/{csvname}", newline="") as f:
                rows = list(csv.DictReader(f, delimiter={sep!r}))
            con = sqlite3.connect("/app/{db}")
            for r in rows:
                con.execute("INSERT INTO {t} ({', '.join(cols)}) VALUES (?, ?, ?, ?)",
                            (r["{key}"], r["{text}"], int(r["{i1}"]), int(re.sub(r"[^0-9]", "", r["{i2}"]))))
            con.commit()
            EOF
            """), True),
        "tests/check.py": (check_py(f"""
            import sqlite3
            if hashlib.sha256(read("/app/data/{csvname}").encode()).hexdigest() != "{sha(data)}":
                fail("the CSV file was modified")
            if not os.path.isfile("/app/{db}"):
                fail("/app/{db} is missing")
            try:
                con = sqlite3.connect("file:/app/{db}?mode=ro", uri=True)
                sql = con.execute("SELECT sql FROM sqlite_master WHERE name = '{t}'").fetchall()
                rows = con.execute("SELECT * FROM {t} ORDER BY {key}").fetchall()
            except sqlite3.Error as e:
                fail(f"cannot read the table: {{e}}")
            if sql != [({create!r},)]:
                fail(f"the definition of {t} changed: {{sql}}")
            want = {want!r}
            if len(rows) != len(want):
                fail(f"{t} has {{len(rows)}} rows, expected {{len(want)}} ({len(old)} old + {len(new)} imported)")
            if rows != want:
                bad = [r for r in rows if r not in want][:3]
                fail(f"{t} holds rows that are not in the data (header row? wrong column?): {{bad}}")
            """), False),
    }
    instruction = (f"Import the data rows of `/app/data/{csvname}` (its first line is a header naming the columns) "
                   f"into the existing table `{t}` of the SQLite database `/app/{db}`, each value into the column its "
                   f"header names. Keep the rows already in the table, and keep the table's definition as it is. "
                   f"Do not modify the data file.\n")
    return instruction, files, {"category": "import_format", "defect": defect}


FAMILIES = [
    Family("sqlite-report", sqlite_report, kind="sqlite"),
    Family("sqlite-migration", sqlite_migration, kind="sqlite"),
    Family("sqlite-import", sqlite_import, kind="sqlite"),
]
