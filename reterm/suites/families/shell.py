"""Families of kind "shell": shell scripting (quoting, exit codes, set -e, traps, arrays, environment). See
reterm/suites/families/__init__.py."""

from __future__ import annotations

import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, write_file_solution

SECONDS = ["notes", "final report", "q3 summary", "old list", "draft copy", "meeting minutes", "price sheet", "todo"]


def _text(rng: random.Random, n: int) -> str:
    return "".join(" ".join(rng.choices(WORDS, k=rng.randint(1, 6))) + "\n" for _ in range(n))


def shell_quoting(rng: random.Random):
    """The script is to be FIXED (the check runs it again on a clean output dir); it splits names with spaces."""
    src, dst = rng.choice([("inbox", "backup"), ("incoming", "archive"), ("uploads", "mirror")])
    script = f"/app/bin/{rng.choice(['sync', 'archive', 'copy_all', 'stash'])}.sh"
    stat, flag = rng.choice([("line count", "-l"), ("word count", "-w"), ("size in bytes", "-c")])
    firsts = rng.sample(WORDS, rng.randint(4, 6))  # distinct first letters: one order in every locale
    spaced = rng.sample(range(len(firsts)), rng.randint(2, len(firsts) - 1))
    names = [f"{w} {rng.choice(SECONDS)}" if i in spaced else w for i, w in enumerate(firsts)]
    inbox = {f"{n}.{rng.choice(['txt', 'csv', 'log'])}": _text(rng, rng.randint(1, 6)) for n in names}
    fixed = d(f"""
        #!/bin/bash
        # Copies every file of /app/{src} to /app/{dst} and lists each one with its {stat} in /app/{dst}/MANIFEST.
        mkdir -p /app/{dst}
        : > /app/{dst}/MANIFEST
        for f in /app/{src}/*; do
          name=$(basename "$f")
          cp "$f" "/app/{dst}/$name"
          printf '%s\\t%s\\n' "$name" "$(wc {flag} < "$f")" >> /app/{dst}/MANIFEST
        done
        echo "copied $(ls /app/{src} | wc -l) files"
        """)
    loop = f"for f in /app/{src}/*; do"
    kind = rng.choice(["ls_loop", "find_loop", "unquoted_vars", "array_unquoted"])
    broken = {
        "ls_loop": fixed.replace(f'{loop}\n  name=$(basename "$f")',
                                 f"for name in $(ls /app/{src}); do\n  f=/app/{src}/$name"),
        "find_loop": fixed.replace(loop, f"for f in $(find /app/{src} -type f | sort); do"),
        "unquoted_vars": fixed.replace(f'cp "$f" "/app/{dst}/$name"', f"cp $f /app/{dst}/$name")
                              .replace('< "$f"', "< $f"),
        "array_unquoted": fixed.replace(loop, f"files=(/app/{src}/*)\nfor f in ${{files[@]}}; do"),
    }[kind]
    assert broken != fixed, kind
    manifest = "".join(f"{n}\t{len(c.splitlines()) if flag == '-l' else len(c.split()) if flag == '-w' else len(c)}\n"
                       for n, c in sorted(inbox.items()))
    files = {f"environment/files/{src}/{n}": (c, False) for n, c in inbox.items()}
    files.update({
        f"environment/files/{script[5:]}": (broken, True),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution(script, fixed, then=f"bash {script}"), True),
        "tests/check.py": (check_py(f"""
            import shutil, subprocess
            inbox, manifest = {inbox!r}, {manifest!r}
            for name, content in inbox.items():
                if read("/app/{src}/" + name) != content:
                    fail(f"/app/{src}/{{name}} was changed")
            if sorted(os.listdir("/app/{src}")) != sorted(inbox):
                fail("files were added to or removed from /app/{src}")
            def outcome(when):
                if sorted(os.listdir("/app/{dst}")) != sorted([*inbox, "MANIFEST"]):
                    fail(f"{{when}}: /app/{dst} does not hold exactly the copies and MANIFEST")
                for name, content in inbox.items():
                    if read("/app/{dst}/" + name) != content:
                        fail(f"{{when}}: /app/{dst}/{{name}} is not an exact copy")
                if read("/app/{dst}/MANIFEST") != manifest:
                    fail(f"{{when}}: MANIFEST is wrong")
            outcome("after your run")
            shutil.rmtree("/app/{dst}")
            try:
                subprocess.run(["bash", "{script}"], capture_output=True, timeout=30)
            except subprocess.TimeoutExpired:
                fail("{script} hangs")
            outcome("running {script} again on a clean /app/{dst}")
            """), False),
    })
    instruction = (f"`{script}` copies every file of `/app/{src}` into `/app/{dst}` and writes `/app/{dst}/MANIFEST`, "
                   f"but it breaks on file names that contain spaces. Fix the script (keep what it does and the "
                   f"MANIFEST format) and run it, so that `/app/{dst}` holds an exact copy of every file. Do not "
                   f"change, add or rename anything in `/app/{src}`.\n")
    return instruction, files, {"category": "quoting", "defect": kind}


def set_e_pipeline(rng: random.Random):
    logs = {}
    names = rng.sample(WORDS, rng.randint(3, 5))
    no_err, no_warn = rng.choice(names), rng.choice(names)
    for n in names:
        levels = ["INFO"] * rng.randint(2, 6) + ["ERROR"] * (0 if n == no_err else rng.randint(1, 4)) + \
                 ["WARN"] * (0 if n == no_warn else rng.randint(1, 4))
        rng.shuffle(levels)
        logs[n] = "".join(f"2024-05-{i + 1:02d} {lv} job {rng.randint(100, 999)}\n" for i, lv in enumerate(levels))
    good = {
        "dir": "dir=${LOG_DIR:-/app/logs}",
        "err": "e=$(grep -c ' ERROR ' \"$f\" || true)",
        "warn": "w=$(grep -c ' WARN ' \"$f\" || true)",
        "count": "files=$((files + 1))",
    }
    bad = {"dir": "dir=$LOG_DIR", "err": "e=$(grep -c ' ERROR ' \"$f\")",
           "warn": "w=$(grep ' WARN ' \"$f\" | wc -l)", "count": "((files++))"}
    defect = rng.choice(list(good))
    body = d("""
        #!/bin/bash
        # Summarises the logs: ERROR and WARN lines per file, then the totals.
        # LOG_DIR may point at another log directory (default: /app/logs).
        set -euo pipefail
        trap 'echo "$0: line $LINENO: a command failed (status $?) and set -e stopped the script" >&2' ERR
        {dir}
        files=0
        total_e=0
        total_w=0
        for f in "$dir"/*.log; do
          {err}
          {warn}
          echo "$(basename "$f" .log): errors=$e warnings=$w"
          total_e=$((total_e + e))
          total_w=$((total_w + w))
          {count}
        done
        echo "files=$files errors=$total_e warnings=$total_w"
        """)
    fixed = body.format(**good)
    broken = body.format(**{**good, defect: bad[defect]})
    counts = {n: (logs[n].count(" ERROR "), logs[n].count(" WARN ")) for n in sorted(names)}
    errors, warnings = sum(e for e, _ in counts.values()), sum(w for _, w in counts.values())
    want = "".join(f"{n}: errors={e} warnings={w}\n" for n, (e, w) in counts.items()) + (
        f"files={len(names)} errors={errors} warnings={warnings}\n")
    script = f"/app/{rng.choice(['report', 'summary', 'logstat', 'triage'])}.sh"
    out = f"/app/{rng.choice(['summary', 'log_report', 'counts'])}.txt"
    files = {f"environment/files/logs/{n}.log": (c, False) for n, c in logs.items()}
    files.update({
        f"environment/files/{script[5:]}": (broken, True),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution(script, fixed, then=f"bash {script} > {out}"), True),
        "tests/check.py": (check_py(f"""
            import re, subprocess
            for name, content in {logs!r}.items():
                if read(f"/app/logs/{{name}}.log") != content:
                    fail(f"/app/logs/{{name}}.log was changed")
            want = {want!r}
            if read("{out}") != want:
                fail("{out} is not the script's complete output")
            opts = " ".join(m.group(1) for m in re.finditer(r"^\\s*set\\s+([^#\\n]*)", read("{script}"), re.M))
            flags = "".join(t[1:] for t in opts.split() if t.startswith("-") and not t.startswith("--"))
            if not ("e" in flags or "errexit" in opts) or not ("u" in flags or "nounset" in opts) \\
                    or "pipefail" not in opts or re.search(r"(^|\\s)\\+\\w*[eu]|\\+o", opts):
                fail("{script} must keep set -euo pipefail")
            env = {{k: v for k, v in os.environ.items() if k != "LOG_DIR"}}
            try:
                res = subprocess.run(["bash", "{script}"], capture_output=True, text=True, timeout=30, env=env)
            except subprocess.TimeoutExpired:
                fail("{script} hangs")
            if res.returncode != 0 or res.stderr or res.stdout != want:
                fail(f"bash {script} exits {{res.returncode}} with stderr {{res.stderr[-300:]!r}} "
                     f"and does not print the full summary")
            """), False),
    })
    instruction = (f"`{script}` summarises the logs in `/app/logs`, but it stops early. Fix it so that "
                   f"`bash {script}` runs to the end cleanly (exit status 0, nothing on stderr, no variables exported "
                   f"beforehand) while keeping its `set -euo pipefail`, and save its complete output to `{out}`. "
                   f"Do not change the logs.\n")
    return instruction, files, {"category": "exit_status", "defect": defect}


def bash_array(rng: random.Random):
    teams = rng.sample(WORDS, rng.randint(3, 4))
    win, draw = rng.choice([(3, 1), (2, 1), (3, 0), (5, 2)])
    cap = rng.random() < 0.5
    results = []
    for _ in range(rng.randint(8, 16)):
        r = rng.choice(["win", "draw", "loss"])
        results.append(f"{rng.choice(teams)} {r.capitalize() if cap and rng.random() < 0.5 else r}")
    kind = rng.choice(["array", "double_bracket", "here_string", "source", "case_conversion"])
    tool = rng.choice(["tally", "standings", "league", "scoreboard"])
    posix = {
        "points": "read -r win draw < /app/data/points.conf",
        "teams": f'teams="{" ".join(teams)}"', "each": "$teams",
        "match": 'if [ "$team" = "$t" ]; then',
        "lower": "result=$(printf '%s' \"$result\" | tr '[:upper:]' '[:lower:]')",
    }
    bash = {
        "array": {"teams": f"teams=({' '.join(teams)})", "each": '"${teams[@]}"'},
        "double_bracket": {"match": 'if [[ $team == "$t" ]]; then'},
        "here_string": {"points": 'read -r win draw <<< "$(cat /app/data/points.conf)"'},
        "source": {"teams": f"source /app/etc/{tool}.conf"},
        "case_conversion": {"lower": 'result=${result,,}'},
    }[kind]
    body = d("""
        #!/bin/sh
        # Prints each team's matches played and points from /app/data/results.txt (points: /app/data/points.conf).
        {points}
        {teams}
        for t in {each}; do
          played=0
          points=0
          while read -r team result; do
            {lower}
            {match}
              played=$((played + 1))
              case $result in
                win) points=$((points + win)) ;;
                draw) points=$((points + draw)) ;;
              esac
            fi
          done < /app/data/results.txt
          echo "$t played=$played points=$points"
        done
        """)
    broken = body.format(**{**posix, **bash})
    fixed = broken.replace("#!/bin/sh", "#!/bin/bash", 1)
    want = ""
    for t in teams:
        mine = [r.split()[1].lower() for r in results if r.split()[0] == t]
        want += f"{t} played={len(mine)} points={mine.count('win') * win + mine.count('draw') * draw}\n"
    data = {"data/results.txt": "\n".join(results) + "\n", "data/points.conf": f"{win} {draw}\n"}
    if kind == "source":
        data[f"etc/{tool}.conf"] = f'teams="{" ".join(teams)}"\n'
    out = f"/app/{rng.choice(['standings', 'table', 'points'])}.txt"
    files = {f"environment/files/{p}": (c, False) for p, c in data.items()}
    files.update({
        f"environment/files/bin/{tool}": (broken, True),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution(f"/app/bin/{tool}", fixed, then=f"/app/bin/{tool} > {out}"), True),
        "tests/check.py": (check_py(f"""
            import subprocess
            for path, content in {data!r}.items():
                if read("/app/" + path) != content:
                    fail(f"/app/{{path}} was changed")
            want = {want!r}
            if read("{out}") != want:
                fail("{out} does not hold the standings")
            try:
                res = subprocess.run(["/app/bin/{tool}"], capture_output=True, text=True, timeout=30)
            except (OSError, subprocess.TimeoutExpired) as e:
                fail(f"/app/bin/{tool} cannot be run directly: {{e}}")
            if res.returncode != 0 or res.stdout != want:
                fail(f"/app/bin/{tool} run directly exits {{res.returncode}} ({{res.stderr[-300:]!r}}) or prints "
                     f"wrong standings")
            """), False),
    })
    instruction = (f"Run `/app/bin/{tool}` (it prints each team's matches played and points) and save its output to "
                   f"`{out}`. The script must also work when run directly as `/app/bin/{tool}`, and its output must be "
                   f"right for the data. Do not change anything under `/app/data`.\n")
    return instruction, files, {"category": "wrong_interpreter", "defect": kind}


FAMILIES = [
    Family("shell-quoting", shell_quoting, kind="shell"),
    Family("set-e-pipeline", set_e_pipeline, kind="shell"),
    Family("bash-array", bash_array, kind="shell"),
]
