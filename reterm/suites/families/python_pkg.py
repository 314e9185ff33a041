"""Families of kind "python": packages run the wrong way, and unit tests that point at a bug (see
reterm/suites/families/__init__.py)."""

from __future__ import annotations

import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha

PACKAGES = ["inventory", "ledger", "planner", "scoring", "forecast", "catalog", "routing", "billing", "roster"]


def py_entrypoint(rng: random.Random):
    pkg = rng.choice(PACKAGES) + rng.choice(["", "kit", "lib", "_app"])
    core, entry = rng.choice(["core", "calc", "model", "rules"]), rng.choice(["cli", "main", "run", "report"])
    defect = rng.choice(["relative_import", "relative_import_nested", "wrong_cwd"])
    rate, version = rng.randint(2, 19), f"{rng.randint(1, 4)}.{rng.randint(0, 12)}"
    items = [(w, rng.randint(1, 40)) for w in rng.sample(WORDS, rng.randint(3, 6))]
    out = f"/app/{rng.choice(['summary', 'totals', 'usage', 'stock'])}_{rng.choice(WORDS)}.txt"
    root = "src/" if defect == "wrong_cwd" else ""  # where the package's parent dir sits under /app
    sub, up = ("tools/", "..") if defect == "relative_import_nested" else ("", ".")
    module = f"{pkg}.{'tools.' if sub else ''}{entry}"
    pkg_files = {
        f"{pkg}/__init__.py": f'"""The {pkg} package."""\n__version__ = "{version}"\n',
        f"{pkg}/{core}.py": d(f"""
            RATE = {rate}


            def line(name, qty):
                return f"{{name}}: {{qty}} x {{RATE}} = {{qty * RATE}}"


            def total(items):
                return sum(qty for _, qty in items) * RATE
            """),
        f"{pkg}/{sub}{entry}.py": d(f"""
            from {up} import __version__
            from {up}{core} import line, total

            ITEMS = {items!r}


            def main():
                with open("{out}", "w") as f:
                    for name, qty in ITEMS:
                        f.write(line(name, qty) + "\\n")
                    f.write(f"total: {{total(ITEMS)}} ({pkg} {{__version__}})\\n")


            if __name__ == "__main__":
                main()
            """),
    }
    if sub:
        pkg_files[f"{pkg}/tools/__init__.py"] = ""
    want = "".join(f"{n}: {q} x {rate} = {q * rate}\n" for n, q in items)
    want += f"total: {sum(q for _, q in items) * rate} ({pkg} {version})\n"
    files = {f"environment/files/{root}{p}": (c, False) for p, c in pkg_files.items()}
    files.update({
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\ncd /app/{root}\npython3 -m {module}\n", True),
        "tests/check.py": (check_py(f"""
            got = read("{out}")
            if got != {want!r}:
                fail(f"{out} is {{got!r}}, expected {want!r}")
            for path, digest in {({f"/app/{root}{p}": sha(c) for p, c in pkg_files.items()})!r}.items():
                if hashlib.sha256(read(path).encode()).hexdigest() != digest:
                    fail(f"{{path}} was modified")
            """), False),
    })
    if defect == "wrong_cwd":
        instruction = (f"Run the module `{module}` of the package in `/app/src/{pkg}` with `python3 -m` so that it "
                       f"writes `{out}`. Do not change, move or add files in the package.\n")
    else:
        instruction = (f"Run the program `/app/{pkg}/{sub}{entry}.py` (part of the package `/app/{pkg}`) with python3 "
                       f"so that it writes `{out}`. Do not change, move or add files in the package.\n")
    return instruction, files, {"category": "import_error", "defect": defect}


# Each: (source of the correct function, the buggy one, a case generator: rng -> [(args, ...)], the first of which
# the buggy version gets wrong). Expected values come from running the correct source here.
FUNCS = {
    "chunks": ("def chunks(items, n):\n    return [items[i:i + n] for i in range(0, len(items), n)]\n",
               "def chunks(items, n):\n    return [items[i:i + n] for i in range(0, len(items) - n + 1, n)]\n",
               lambda r: [(list(range(r.randint(3, 5) * 2 + 1)), 2), (list("abcdefg"), 3), ([r.randint(1, 9)] * 4, 2),
                          ([], 3), (list(range(r.randint(1, 9), 20)), r.randint(3, 5))]),
    "clamp": ("def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return hi\n    return x\n",
              "def clamp(x, lo, hi):\n    if x < lo:\n        return lo\n    if x > hi:\n        return lo\n    return x\n",
              lambda r: [(r.randint(50, 99), 0, r.randint(10, 40)), (-5, 0, 10), (5, 0, 10), (r.randint(11, 90), 1, 10),
                         (7, 7, 7)]),
    "slugify": ("def slugify(text):\n    return \"-\".join(text.lower().split())\n",
                "def slugify(text):\n    return text.lower().replace(\" \", \"-\")\n",
                lambda r: [(f"{r.choice(WORDS).title()}  {r.choice(WORDS)}",), ("plain",), ("Two Words",),
                           (f" {r.choice(WORDS)} {r.choice(WORDS).upper()} ",), ("a\tb",)]),
    "percent": ("def percent(part, whole):\n    return round(100 * part / whole, 1)\n",
                "def percent(part, whole):\n    return round(100 * part // whole, 1)\n",
                lambda r: [(1, 3), (r.randint(1, 9), 10), (5, 5), (2, 7), (r.randint(1, 20), 21)]),
    "is_leap": ("def is_leap(year):\n    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)\n",
                "def is_leap(year):\n    return year % 4 == 0 and year % 100 != 0\n",
                lambda r: [(r.choice([1600, 2000, 2400]),), (2023,), (2024,), (1900,), (r.choice([1996, 2012, 2028]),)]),
    "word_count": ("def word_count(text):\n    return len(text.split())\n",
                   "def word_count(text):\n    return len(text.split(\" \"))\n",
                   lambda r: [(f"{r.choice(WORDS)}  {r.choice(WORDS)} end",), ("one",), ("a b c",), ("",),
                              (" ".join(r.sample(WORDS, r.randint(2, 6))) + " ",)]),
}


def py_unittest(rng: random.Random):
    mod = rng.choice(["textkit", "numtools", "helpers", "utilbox", "common", "toolkit"]) + str(rng.randint(1, 9))
    names = rng.sample(sorted(FUNCS), 3)
    buggy = rng.choice(names)
    module = "\n\n".join(FUNCS[n][1 if n == buggy else 0] for n in names)
    cases = {}
    for n in names:
        ns, bad = {}, {}
        exec(FUNCS[n][0], ns)
        exec(FUNCS[n][1], bad)
        cases[n] = [(args, ns[n](*args)) for args in FUNCS[n][2](rng)]
        assert bad[n](*cases[n][0][0]) != cases[n][0][1], n  # the buggy version fails a visible test
    visible = {n: cs[:3] for n, cs in cases.items()}
    visible[buggy] = visible[buggy][1:] + visible[buggy][:1]  # the failing assertion is not the first one
    hidden = [(n, a, w) for n, cs in cases.items() for a, w in cs[3:]] + [(buggy, *cases[buggy][0])]
    tests = f"import unittest\n\nfrom {mod} import {', '.join(names)}\n\n\nclass Test{mod.title()}(unittest.TestCase):\n"
    for n in names:
        tests += f"    def test_{n}(self):\n" + "".join(
            f"        self.assertEqual({n}({', '.join(map(repr, a))}), {w!r})\n" for a, w in visible[n]) + "\n"
    tests = tests.rstrip("\n") + "\n\n\nif __name__ == \"__main__\":\n    unittest.main()\n"
    fixed = "\n\n".join(FUNCS[n][0] for n in names)
    files = {
        f"environment/files/{mod}.py": (module, False),
        f"environment/files/test_{mod}.py": (tests, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\ncat > /app/{mod}.py <<'EOF'\n{fixed}EOF\n"
                              f"cd /app && python3 -m unittest\n", True),
        "tests/check.py": (check_py(f"""
            import subprocess
            if hashlib.sha256(read("/app/test_{mod}.py").encode()).hexdigest() != "{sha(tests)}":
                fail("test_{mod}.py was modified")
            r = subprocess.run([sys.executable, "-m", "unittest"], cwd="/app", capture_output=True, text=True,
                               timeout=60)
            if r.returncode != 0 or "Ran 3 tests" not in r.stderr:
                fail("python3 -m unittest does not pass: " + r.stderr[-500:])
            sys.path.insert(0, "/app")
            from {mod} import {', '.join(names)}
            for name, args, want in {hidden!r}:
                got = globals()[name](*args)
                if got != want or type(got) != type(want):
                    fail(f"{{name}}{{tuple(args)!r}} returned {{got!r}}, expected {{want!r}}")
            """), False),
    }
    instruction = (f"`python3 -m unittest` in `/app` reports a failing test of the module `/app/{mod}.py`. Fix the bug "
                   f"in the module so that every test passes and its functions are correct for every valid input; "
                   f"do not change the test file `/app/test_{mod}.py`.\n")
    return instruction, files, {"category": "buggy_code", "defect": buggy}


FAMILIES = [
    Family("py-entrypoint", py_entrypoint, kind="python"),
    Family("py-unittest", py_unittest, kind="python"),
]
