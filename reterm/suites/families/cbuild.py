"""Families of kind "c-build": C programs and Makefiles that do not build as given (see
reterm/suites/families/__init__.py)."""

from __future__ import annotations

import math
import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha


def _c_round(x: float) -> float:  # C's round(): halves away from zero
    return math.copysign(math.floor(abs(x) + 0.5), x)


# (C expression of the int v, printf format, the same in Python): each needs libm at link time even at -O2
MATH = [("sqrt((double)v)", "%.3f", lambda v, k: math.sqrt(v)),
        ("fmod((double)v, {k}.0)", "%.1f", lambda v, k: math.fmod(v, k)),
        ("round(v / {k}.0)", "%.0f", lambda v, k: _c_round(v / k))]


def c_project(rng: random.Random, *, wrong_include: bool = False, no_include: bool = False, no_libm: bool = False,
              no_object: bool = False, spaces: bool = False):
    """A small C program (a header in a subdirectory, a helper source, libm) and its Makefile, with the defects asked
    for. Returns (files, makefile fixed, instruction, check body, defaults)."""
    prog = rng.choice(WORDS) + rng.choice(["", "ctl", "calc", "stat"])
    hname, fn = rng.choice(["units", "scoring", "pricing", "weights", "metrics", "table"]), \
        rng.choice(["scale", "weigh", "bucket", "adjust", "score"])
    hdir = rng.choice(["include", f"include/{prog}", "src/include", f"lib/{hname}"])
    a, b, k, label = rng.randint(2, 9), rng.randint(0, 50), rng.randint(3, 9), rng.choice(WORDS)
    exprs = rng.sample(MATH, rng.randint(1, 2))
    values = [rng.randint(1, 400) for _ in range(rng.randint(3, 7))]
    fmt = " ".join(f for _, f, _ in exprs)
    header = f"#ifndef {hname.upper()}_H\n#define {hname.upper()}_H\n\n#define LABEL \"{label}\"\n\nint {fn}(int x);\n\n#endif\n"
    helper = f'#include "{hname}.h"\n\nint {fn}(int x)\n{{\n    return x * {a} + {b};\n}}\n'
    main = d(f"""
        #include <math.h>
        #include <stdio.h>

        #include "{hname}.h"

        int main(void)
        {{
            FILE *f = fopen("/app/data/values.txt", "r");
            int v;

            if (!f) {{
                perror("/app/data/values.txt");
                return 1;
            }}
            while (fscanf(f, "%d", &v) == 1)
                printf("%s %d -> %d {fmt}\\n", LABEL, v, {fn}(v), {", ".join(e.format(k=k) for e, _, _ in exprs)});
            fclose(f);
            return 0;
        }}
        """)
    want = "".join(f"{label} {v} -> {v * a + b} " + " ".join(f % p(v, k) for _, f, p in exprs) + "\n" for v in values)
    srcs = ["src/main.c", f"src/{hname}.c"]
    good = d(f"""
        CC = gcc
        CFLAGS = -Wall -O2 -I{hdir}
        LDLIBS = -lm
        SRCS = {" ".join(srcs)}
        OBJS = $(SRCS:src/%.c=build/%.o)
        BIN = bin/{prog}

        all: $(BIN)

        $(BIN): $(OBJS)
        \tmkdir -p bin
        \t$(CC) -o $@ $(OBJS) $(LDLIBS)

        build/%.o: src/%.c
        \tmkdir -p build
        \t$(CC) $(CFLAGS) -c -o $@ $<

        clean:
        \trm -rf bin build
        """)
    # objects built one by one (not gcc's temporary ones): a link error names build/main.o, the same every run
    bad = good
    if wrong_include or no_include:
        wrong = rng.choice([x for x in ["include", "inc", "headers", "src/include", "lib"] if x != hdir])
        bad = bad.replace(f" -I{hdir}", f" -I{wrong}" if wrong_include else "")
    if no_libm:
        bad = bad.replace("LDLIBS = -lm", rng.choice(["LDLIBS =", "LDLIBS = -lmath"]))
    if no_object:
        bad = bad.replace(f"SRCS = {' '.join(srcs)}", "SRCS = src/main.c")
    if spaces:
        lines = bad.split("\n")
        tabbed = [i for i, line in enumerate(lines) if line.startswith("\t")]
        for i in rng.sample(tabbed, rng.randint(1, 2)):
            lines[i] = " " * rng.choice([2, 4, 8]) + lines[i][1:]
        bad = "\n".join(lines)
    assert bad != good
    sources = {"src/main.c": main, f"src/{hname}.c": helper, f"{hdir}/{hname}.h": header,
               "data/values.txt": "\n".join(map(str, values)) + "\n"}
    files = {f"environment/files/{p}": (c, False) for p, c in sources.items()}
    files.update({
        "environment/files/Makefile": (bad, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\ncat > /app/Makefile <<'EOF'\n{good}EOF\ncd /app\nmake\n", True),
        "tests/check.py": (check_py(f"""
            import shutil, subprocess, tempfile
            for path, digest in {({f"/app/{p}": sha(c) for p, c in sources.items()})!r}.items():
                if hashlib.sha256(read(path).encode()).hexdigest() != digest:
                    fail(f"{{path}} was modified")

            def output(binary):
                with open(binary, "rb") as f:
                    if f.read(4) != b"\\x7fELF":
                        fail(f"{{binary}} is not a compiled program")
                try:
                    r = subprocess.run([binary], cwd="/app", capture_output=True, text=True, timeout=10)
                except (OSError, subprocess.TimeoutExpired) as e:
                    fail(f"{{binary}} does not run: {{e}}")
                if r.stdout != {want!r}:
                    fail(f"{{binary}} printed {{r.stdout!r}}, expected {want!r}")

            if not os.path.isfile("/app/bin/{prog}"):
                fail("/app/bin/{prog} was not built")
            output("/app/bin/{prog}")
            tmp = tempfile.mkdtemp()
            shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
            r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
            if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/{prog}"):
                fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
            output(tmp + "/app/bin/{prog}")
            shutil.rmtree(tmp, ignore_errors=True)
            """), False),
    })
    instruction = (f"`make` in `/app` should build the program `/app/bin/{prog}`, but the build fails. Fix the build so "
                   f"that a plain `make` in `/app` builds it, and build it. Do not change any `.c` or `.h` file or the "
                   f"data in `/app/data`.\n")
    return instruction, files


def c_include(rng: random.Random):
    defect = rng.choice(["missing_include_flag", "wrong_include_dir"])
    instruction, files = c_project(rng, no_include=defect == "missing_include_flag",
                                   wrong_include=defect == "wrong_include_dir")
    return instruction, files, {"category": "missing_header", "defect": defect}


def c_link_lib(rng: random.Random):
    defect = rng.choice(["missing_libm", "missing_object"])
    instruction, files = c_project(rng, no_libm=defect == "missing_libm", no_object=defect == "missing_object")
    return instruction, files, {"category": "link_error", "defect": defect}


def make_two_fixes(rng: random.Random):
    first, second = rng.choice([("spaces", "no_include"), ("spaces", "no_libm"), ("spaces", "no_object"),
                                ("no_include", "no_libm"), ("no_include", "no_object"), ("wrong_include", "no_libm")])
    instruction, files = c_project(rng, **{first: True, second: True})
    return instruction, files, {"category": "build_error", "defect": f"{first}+{second}"}


# Shell-only make recipes: (command, how the output follows from the input lines). None of them holds ':' or '='
# (a space-indented line with one would parse as a rule or a variable instead of failing).
STEPS = [("sort -u $< > $@", lambda ls: sorted(set(ls))),
         ("tr a-z A-Z < $< > $@", lambda ls: [s.upper() for s in ls]),
         ("sort -r $< > $@", lambda ls: sorted(ls, reverse=True)),
         ("head -n 3 $< > $@", lambda ls: ls[:3]),
         ("sed 's/^/- /' $< > $@", lambda ls: ["- " + s for s in ls])]


def make_tab(rng: random.Random):
    data = [rng.choice(WORDS) for _ in range(rng.randint(6, 12))]
    names = rng.sample(["merged", "sorted", "upper", "clean", "stage", "listing", "index", "digest"], 3)
    steps = rng.sample(STEPS, 2)
    src, title = f"data/{rng.choice(['words', 'input', 'items', 'names'])}.txt", rng.choice(WORDS)
    mid, final = f"build/{names[0]}.txt", f"out/{names[1]}.txt"
    lines, rules = data, []
    for (cmd, f), target, dep in zip(steps, [mid, f"build/{names[2]}.txt"], [src, mid]):
        rules.append(f"{target}: {dep}\n\tmkdir -p build\n\t{cmd}\n")
        lines = f(lines)
    last = f"build/{names[2]}.txt"
    rules.append(f"{final}: {last}\n\tmkdir -p out\n\techo '# {title}' > $@\n\tcat $< >> $@\n\twc -l < $< >> $@\n")
    good = f"all: {final}\n\n" + "\n".join(rules) + "\nclean:\n\trm -rf build out\n"
    want = f"# {title}\n" + "".join(s + "\n" for s in lines) + f"{len(lines)}\n"
    mlines = good.split("\n")
    tabbed = [i for i, line in enumerate(mlines) if line.startswith("\t")]
    n_bad = rng.randint(1, 2)
    for i in rng.sample(tabbed, n_bad):
        mlines[i] = " " * rng.choice([2, 4, 8]) + mlines[i][1:]
    bad = "\n".join(mlines)
    data_txt = "\n".join(data) + "\n"
    files = {
        f"environment/files/{src}": (data_txt, False),
        "environment/files/Makefile": (bad, False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d("""
            #!/bin/bash
            set -e
            cd /app
            sed -i 's/^ \\+/\\t/' Makefile
            make
            """), True),
        "tests/check.py": (check_py(f"""
            import shutil, subprocess, tempfile
            if read("/app/{final}") != {want!r}:
                fail("/app/{final} does not hold what the Makefile's recipes make")
            if hashlib.sha256(read("/app/{src}").encode()).hexdigest() != "{sha(data_txt)}":
                fail("/app/{src} was modified")
            if [l.strip() for l in read("/app/Makefile").splitlines() if l.strip()] != \\
                    {[l.strip() for l in good.splitlines() if l.strip()]!r}:
                fail("the Makefile's rules or recipe commands were changed")
            tmp = tempfile.mkdtemp()
            shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("build", "out"))
            r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=60)
            if r.returncode != 0:
                fail("a plain make fails: " + (r.stdout + r.stderr)[-400:])
            if read(tmp + "/app/{final}") != {want!r}:
                fail("a plain make does not build {final} right")
            shutil.rmtree(tmp, ignore_errors=True)
            """), False),
    }
    instruction = (f"Run `make` in `/app` so that it builds `/app/{final}` from `/app/{src}`. It fails: repair the "
                   f"Makefile without changing its rules or the commands of its recipes, and don't edit the data.\n")
    return instruction, files, {"category": "makefile_syntax", "defect": f"spaces_{n_bad}_lines"}


FAMILIES = [
    Family("c-include", c_include, kind="c-build"),
    Family("make-tab", make_tab, kind="c-build"),
    Family("c-link-lib", c_link_lib, kind="c-build"),
    Family("make-two-fixes", make_two_fixes, kind="c-build", fixes=2),
]
