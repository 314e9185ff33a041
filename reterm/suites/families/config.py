"""Families of kind "config-validation" (held out as novel): a schedule or unit file that a validator shipped with the
task rejects, with a line number and what is wrong. The outcome is a file the validator accepts AND that keeps every
intended entry: check.py runs the same validator code (the task's copy could be edited) and compares meanings."""

from __future__ import annotations

import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha, write_file_solution

CRON_VALIDATOR = d('''
    #!/usr/bin/env python3
    """validate-crontab FILE: checks a crontab (five time fields, then a command given by its absolute path) and
    stops at the first error, as crontab(1) does."""
    import sys

    FIELDS = [("minute", 0, 59), ("hour", 0, 23), ("day-of-month", 1, 31), ("month", 1, 12), ("day-of-week", 0, 7)]
    NAMES = {3: "jan feb mar apr may jun jul aug sep oct nov dec".split(), 4: "sun mon tue wed thu fri sat".split()}
    MACROS = {"@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@weekly": "0 0 * * 0",
              "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *"}


    def number(text, i):
        name, lo, hi = FIELDS[i]
        if text.lower() in NAMES.get(i, []):
            return NAMES[i].index(text.lower()) + (1 if i == 3 else 0)
        if not text.isdigit():
            raise ValueError(f"{name}: {text!r} is not a number" + (" or a name" if i in NAMES else ""))
        if not lo <= int(text) <= hi:
            raise ValueError(f"{name} {text} is out of range {lo}-{hi}")
        return int(text)


    def values(text, i):
        """The set of values a time field stands for (day-of-week 7 is Sunday, 0)."""
        name, lo, hi = FIELDS[i]
        out = set()
        for part in text.split(","):
            span, slash, step = part.partition("/")
            if slash and not (step.isdigit() and int(step) >= 1):
                raise ValueError(f"{name}: step {step!r} in {part!r} must be a number of at least 1")
            if span == "*":
                a, b = lo, hi
            else:
                first, dash, last = span.partition("-")
                a = number(first, i)
                b = number(last, i) if dash else (hi if slash else a)
                if b < a:
                    raise ValueError(f"{name}: range {span!r} runs backwards")
            out |= set(range(a, b + 1, int(step) if slash else 1))
        return {0 if (i == 4 and v == 7) else v for v in out}


    def parse(line):
        """None for a blank, comment or VAR=value line; else (the five value sets, the command)."""
        text = line.strip()
        if not text or text.startswith("#"):
            return None
        head = text.split()[0]
        if "=" in head and not head[0].isdigit() and head[0] not in "*@":
            return None
        if head.startswith("@"):
            if head not in MACROS:
                raise ValueError(f"unknown macro {head}")
            times, command = MACROS[head].split(), text[len(head):].strip()
        else:
            parts = text.split(None, 5)
            if len(parts) < 6:
                raise ValueError(f"no command after the time fields (found {len(parts)} fields, need 5 and a command)")
            times, command = parts[:5], parts[5]
        if not command.startswith("/"):
            raise ValueError(f"the command must start with an absolute path, got {command.split()[0]!r} "
                             f"(too many time fields?)")
        return tuple(values(f, i) for i, f in enumerate(times)), command


    def main():
        if len(sys.argv) != 2:
            sys.exit("usage: validate-crontab FILE")
        jobs = 0
        for n, line in enumerate(open(sys.argv[1]).read().splitlines(), 1):
            try:
                jobs += parse(line) is not None
            except ValueError as e:
                sys.exit(f"{sys.argv[1]}:{n}: {e}")
        print(f"{sys.argv[1]}: OK ({jobs} jobs)")


    if __name__ == "__main__":
        main()
    ''')

SCHEDULES = [  # (what the instruction says, the time fields)
    ("every 15 minutes", "*/15 * * * *"),
    ("every day at {H:02d}:{M:02d}", "{M} {H} * * *"),
    ("at {H:02d}:00 on weekdays (Monday to Friday)", "0 {H} * * 1-5"),
    ("at {H:02d}:{M:02d} every Sunday", "{M} {H} * * 0"),
    ("at the start of every hour", "0 * * * *"),
    ("at {H:02d}:{M:02d} on the first day of every month", "{M} {H} 1 * *"),
    ("every 6 hours on the hour (00:00, 06:00, 12:00, 18:00)", "0 */6 * * *"),
    ("at midnight every day", "0 0 * * *"),
]


def _cron_break(defect: str, times: str, rng: random.Random):
    """The job's time fields (and whether its command is kept) after `defect`, or None where it does not apply."""
    f = times.split()
    if defect == "seconds_field":
        return "0 " + times, True
    if defect == "missing_command":
        return times, False
    if defect == "out_of_range":
        if f[0] == "0" and f[1] == "*":
            return "60 " + " ".join(f[1:]), True
        if f[1] == "0":
            return " ".join([f[0], "24"] + f[2:]), True
        if f[4] == "0":
            return " ".join(f[:4] + ["8"]), True
        return None
    if defect == "bad_step":
        for i, v in enumerate(f):
            if v.startswith("*/"):
                return " ".join(f[:i] + [rng.choice(["*/0", v + "m", v[1:]])] + f[i + 1:]), True
        return None
    if defect == "bad_name" and f[4] in ("1-5", "0"):
        return " ".join(f[:4] + [{"1-5": rng.choice(["mon-fry", "mo-fr", "monday-friday"]), "0": "sunday"}[f[4]]]), True
    return None


def crontab_check(rng: random.Random):
    path = rng.choice(["/app/etc/crontab", f"/app/cron/{rng.choice(WORDS)}.cron", "/app/config/schedule.cron"])
    scripts = rng.sample(["backup", "rotate-logs", "report", "cleanup", "sync", "digest", "vacuum", "reindex"], 5)
    chosen = rng.sample(SCHEDULES, 5)
    jobs = []
    for script, (say, times) in zip(scripts, chosen):
        h, m = rng.randint(1, 22), rng.choice([5, 10, 15, 20, 30, 40, 45, 50])
        cmd = f"/app/bin/{script}.sh" + rng.choice(["", " --quiet", f" >> /app/log/{script}.log 2>&1"])
        jobs.append((say.format(H=h, M=m), times.format(H=h, M=m), cmd))
    defects, broken = [], {}
    for defect in rng.sample(["seconds_field", "missing_command", "out_of_range", "bad_step", "bad_name"], 5):
        for j in rng.sample(range(len(jobs)), len(jobs)):
            got = _cron_break(defect, jobs[j][1], rng)
            if got and j not in broken:
                broken[j] = got
                defects.append(defect)
                break
        if len(defects) == 2:
            break
    env = f"SHELL=/bin/bash\nMAILTO={rng.choice(['ops', 'root', ''])}\n"

    def render(bad: bool) -> str:
        out = f"# {scripts[0]} and friends: maintenance schedule\n" + env
        for j, (say, times, cmd) in enumerate(jobs):
            times_, keep = broken[j] if bad and j in broken else (times, True)
            out += f"\n# {cmd.split()[0].rsplit('/', 1)[1]}: {say}\n{times_}" + (f" {cmd}" if keep else "") + "\n"
        return out
    want = [([sorted(s) for s in t], c) for t, c in (_parse(f"{times} {cmd}") for _, times, cmd in jobs)]
    files = {
        "environment/files/bin/validate-crontab": (CRON_VALIDATOR, True),
        path.replace("/app/", "environment/files/", 1): (render(True), False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution(path, render(False), then=f"/app/bin/validate-crontab {path}"), True),
        "tests/check.py": (check_py(f"""
            ns = {{"__name__": "validator"}}
            exec({CRON_VALIDATOR!r}, ns)
            jobs, env = [], []
            for n, line in enumerate(read({path!r}).splitlines(), 1):
                try:
                    job = ns["parse"](line)
                except ValueError as e:
                    fail(f"{path}:{{n}} is still rejected: {{e}}")
                if job:
                    jobs.append(([sorted(s) for s in job[0]], " ".join(job[1].split())))
                elif "=" in line and not line.lstrip().startswith("#"):
                    env.append(line.strip())
            for job in {want!r}:
                if job not in jobs:
                    fail(f"no job runs {{job[1]}} on its intended schedule")
            if len(jobs) != {len(jobs)}:
                fail(f"{len(jobs)} jobs expected, found {{len(jobs)}}")
            if env != {env.split()!r}:
                fail("the variable assignments changed")
            if hashlib.sha256(read("/app/bin/validate-crontab").encode()).hexdigest() != "{sha(CRON_VALIDATOR)}":
                fail("the validator was modified")
            """), False),
    }
    plan = "".join(f"\n- `{cmd}` runs {say};" for say, _, cmd in jobs).rstrip(";") + "."
    instruction = (f"`/app/bin/validate-crontab {path}` rejects the schedule `{path}`. Fix the file so that the "
                   f"validator accepts it and it still holds exactly these jobs, each on its schedule (keep the "
                   f"variable assignments; do not edit the validator):{plan}\n")
    return instruction, files, {"category": "config_syntax", "defect": "+".join(sorted(defects))}


def _parse(line: str):
    ns: dict = {"__name__": "validator"}
    exec(CRON_VALIDATOR, ns)
    times, cmd = ns["parse"](line)
    return times, " ".join(cmd.split())


UNIT_VALIDATOR = d('''
    #!/usr/bin/env python3
    """validate-unit FILE: checks a service unit file ([Unit], [Service], [Install]) and reports every error."""
    import difflib
    import os
    import re
    import sys

    KEYS = {"Unit": ["Description", "Documentation", "After", "Wants", "Requires"],
            "Service": ["Type", "ExecStart", "ExecReload", "WorkingDirectory", "User", "Group", "Environment",
                        "Restart", "RestartSec", "TimeoutStopSec"],
            "Install": ["WantedBy", "Alias"]}
    REQUIRED = {"Unit": "Description", "Service": "ExecStart", "Install": "WantedBy"}
    CHOICES = {"Type": ["simple", "exec", "forking", "oneshot", "notify", "idle"],
               "Restart": ["no", "always", "on-success", "on-failure", "on-abnormal", "on-abort", "on-watchdog"]}
    SPAN = re.compile(r"^[0-9]+(ms|s|sec|min|m|h)?$")


    def seconds(value):
        """A time span in seconds (a bare number is seconds), or None when it is not one."""
        m = SPAN.match(value)
        if not m:
            return None
        n = int(value[:m.start(1)] if m.group(1) else value)
        return {"ms": n / 1000, "min": n * 60, "m": n * 60, "h": n * 3600}.get(m.group(1), n)


    def parse(text):
        """(sections {name: {key: (line, value)}}, section header lines, errors as (line, message))."""
        sections, headers, errors, current = {}, {}, [], None
        for n, raw in enumerate(text.splitlines(), 1):
            line = raw.strip()
            if not line or line[0] in "#;":
                continue
            if line.startswith("[") and line.endswith("]"):
                current = line[1:-1]
                if current not in KEYS:
                    errors.append((n, f"unknown section [{current}]"))
                sections.setdefault(current, {})
                headers[current] = n
                continue
            key, eq, value = line.partition("=")
            key, value = key.strip(), value.strip()
            if current is None or not eq:
                errors.append((n, "expected Key=Value inside a section"))
                continue
            if current in KEYS and key not in KEYS[current]:
                near = difflib.get_close_matches(key, KEYS[current], 1, 0.6)
                hint = f" (did you mean {near[0]!r}?)" if near else ""
                errors.append((n, f"unknown key {key!r} in [{current}]{hint}"))
            elif key in sections[current]:
                errors.append((n, f"{key}= is set twice in [{current}]"))
            sections[current][key] = (n, value)
        return sections, headers, errors


    def check(text):
        sections, headers, errors = parse(text)
        for section, key in REQUIRED.items():
            if section not in sections:
                errors.append((0, f"section [{section}] is missing"))
            elif key not in sections[section]:
                errors.append((headers[section], f"[{section}] has no {key}= (required)"))
        for section, keys in sections.items():
            for key, (n, value) in keys.items():
                if key in CHOICES and value not in CHOICES[key]:
                    errors.append((n, f"{key}= must be one of {', '.join(CHOICES[key])}; got {value!r}"))
                elif key in ("RestartSec", "TimeoutStopSec") and seconds(value) is None:
                    errors.append((n, f"{key}= expects a time span such as 5 or 5s; got {value!r}"))
                elif key in ("ExecStart", "ExecReload", "WorkingDirectory"):
                    path = value.split()[0].lstrip("-@+!") if value else ""
                    if not path.startswith("/"):
                        errors.append((n, f"{key}= must start with an absolute path; got {path!r}"))
                    elif not os.path.exists(path):
                        errors.append((n, f"{key}= names {path}, which does not exist"))
                elif key == "WantedBy" and not all(u.endswith(".target") for u in value.split()):
                    errors.append((n, f"WantedBy= must name .target units; got {value!r}"))
        return sorted(errors)


    def main():
        if len(sys.argv) != 2:
            sys.exit("usage: validate-unit FILE")
        errors = check(open(sys.argv[1]).read())
        for n, msg in errors:
            print(f"{sys.argv[1]}:{n}: {msg}")
        if errors:
            sys.exit(f"{len(errors)} error(s)")
        print(f"{sys.argv[1]}: OK")


    if __name__ == "__main__":
        main()
    ''')


def service_unit_check(rng: random.Random):
    name = rng.choice(WORDS)
    role = rng.choice(["metrics collector", "queue consumer", "web frontend", "cache warmer", "mail relay"])
    restart = rng.choice(["on-failure", "always", "on-abnormal"])
    delay, target = rng.choice(list(SPELLED)), rng.choice(["multi-user.target", "default.target"])
    args = f"--config /app/etc/{name}.toml --port {rng.randint(2000, 9000)}" + rng.choice(["", " --verbose"])
    unit = {"Unit": {"Description": f"{name.capitalize()} {role}", "After": "network.target"},
            "Service": {"Type": rng.choice(["simple", "exec", "notify"]), "ExecStart": f"/app/bin/{name} {args}",
                        "WorkingDirectory": f"/app/srv/{name}", "Restart": restart,
                        "RestartSec": rng.choice([f"{delay}", f"{delay}s"])},
            "Install": {"WantedBy": target}}
    for key, value in [("User", rng.choice(["app", name, "nobody"])), ("Environment", f"{name.upper()}_MODE=prod"),
                       ("TimeoutStopSec", f"{rng.randint(5, 60)}s")]:
        if rng.random() < 0.6:
            unit["Service"][key] = value
    bad = {s: dict(kv) for s, kv in unit.items()}
    defects = rng.sample(["typo", "relative", "missing", "wrong_type"], 2)
    used = set()
    if "relative" in defects:
        key = rng.choice(["ExecStart", "WorkingDirectory"])
        bad["Service"][key] = (rng.choice([f"bin/{name} ", f"./bin/{name} ", f"{name} "]) + args if key == "ExecStart"
                               else f"srv/{name}")
        used.add(key)
    if "missing" in defects:
        key = rng.choice(["Description", "WantedBy"])
        del bad["Unit" if key == "Description" else "Install"][key]
        used.add(key)
    if "wrong_type" in defects:
        key = rng.choice([k for k in ["Restart", "RestartSec", "WantedBy"] if k not in used])
        sec = "Install" if key == "WantedBy" else "Service"
        bad[sec][key] = {"Restart": rng.choice(["yes", "true", "on-error"]), "WantedBy": target.split(".")[0],
                         "RestartSec": rng.choice([SPELLED[delay], f"{delay} secs", f"{delay}S"])}[key]
        used.add(key)
    if "typo" in defects:
        key = rng.choice([k for s in ("Unit", "Service") for k in bad[s] if k not in used and len(k) > 4])
        sec = "Unit" if key in bad["Unit"] else "Service"
        i = rng.randint(1, len(key) - 3)
        typo = rng.choice([key[:i] + key[i + 1:], key[:i] + key[i + 1] + key[i] + key[i + 2:], key.lower()])
        assert typo != key
        bad[sec] = {(typo if k == key else k): v for k, v in bad[sec].items()}

    def render(u: dict) -> str:
        return "\n".join(f"[{s}]\n" + "".join(f"{k}={v}\n" for k, v in kv.items()) for s, kv in u.items())
    path = f"/app/etc/units/{name}.service"
    program = f"#!/bin/sh\necho '{name} {role}: started'\n"
    want = {s: {k: str(_seconds(v)) if k in ("RestartSec", "TimeoutStopSec") else v for k, v in kv.items()}
            for s, kv in unit.items()}
    files = {
        "environment/files/bin/validate-unit": (UNIT_VALIDATOR, True),
        f"environment/files/bin/{name}": (program, True),
        f"environment/files/srv/{name}/README": (f"Working directory of the {name} {role}.\n", False),
        path.replace("/app/", "environment/files/", 1): (render(bad), False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (write_file_solution(path, render(unit), then=f"/app/bin/validate-unit {path}"), True),
        "tests/check.py": (check_py(f"""
            ns = {{"__name__": "validator"}}
            exec({UNIT_VALIDATOR!r}, ns)
            text = read({path!r})
            errors = ns["check"](text)
            if errors:
                fail(f"the validator still rejects the unit: {{errors}}")
            got = {{s: {{k: str(ns["seconds"](v)) if k in ("RestartSec", "TimeoutStopSec") else " ".join(v.split())
                       for k, (_, v) in kv.items()}} for s, kv in ns["parse"](text)[0].items()}}
            if got != {want!r}:
                fail(f"the unit's settings are not the intended ones: {{got}}")
            if hashlib.sha256(read("/app/bin/validate-unit").encode()).hexdigest() != "{sha(UNIT_VALIDATOR)}":
                fail("the validator was modified")
            """), False),
    }
    instruction = (f"`/app/bin/validate-unit {path}` rejects the unit file `{path}`. Repair it so the validator "
                   f"accepts it without changing what the unit means: it is described as "
                   f"\"{unit['Unit']['Description']}\", runs `/app/bin/{name}` with the arguments it has now in "
                   f"`/app/srv/{name}`, uses the restart policy "
                   f"`{restart}` with a delay of {delay} seconds, and is installed for `{target}`; every other setting "
                   f"stays as it is. Do not edit the validator.\n")
    return instruction, files, {"category": "config_syntax", "defect": "+".join(sorted(defects))}


SPELLED = {2: "two", 3: "three", 5: "five", 10: "ten", 15: "fifteen", 20: "twenty", 30: "thirty"}


def _seconds(value: str):
    ns: dict = {"__name__": "validator"}
    exec(UNIT_VALIDATOR, ns)
    return ns["seconds"](value)


FAMILIES = [
    Family("crontab-check", crontab_check, kind="config-validation", fixes=2),
    Family("service-unit-check", service_unit_check, kind="config-validation"),
]
