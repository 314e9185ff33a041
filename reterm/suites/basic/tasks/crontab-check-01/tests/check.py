import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

ns = {"__name__": "validator"}
exec('#!/usr/bin/env python3\n"""validate-crontab FILE: checks a crontab (five time fields, then a command given by its absolute path) and\nstops at the first error, as crontab(1) does."""\nimport sys\n\nFIELDS = [("minute", 0, 59), ("hour", 0, 23), ("day-of-month", 1, 31), ("month", 1, 12), ("day-of-week", 0, 7)]\nNAMES = {3: "jan feb mar apr may jun jul aug sep oct nov dec".split(), 4: "sun mon tue wed thu fri sat".split()}\nMACROS = {"@hourly": "0 * * * *", "@daily": "0 0 * * *", "@midnight": "0 0 * * *", "@weekly": "0 0 * * 0",\n          "@monthly": "0 0 1 * *", "@yearly": "0 0 1 1 *", "@annually": "0 0 1 1 *"}\n\n\ndef number(text, i):\n    name, lo, hi = FIELDS[i]\n    if text.lower() in NAMES.get(i, []):\n        return NAMES[i].index(text.lower()) + (1 if i == 3 else 0)\n    if not text.isdigit():\n        raise ValueError(f"{name}: {text!r} is not a number" + (" or a name" if i in NAMES else ""))\n    if not lo <= int(text) <= hi:\n        raise ValueError(f"{name} {text} is out of range {lo}-{hi}")\n    return int(text)\n\n\ndef values(text, i):\n    """The set of values a time field stands for (day-of-week 7 is Sunday, 0)."""\n    name, lo, hi = FIELDS[i]\n    out = set()\n    for part in text.split(","):\n        span, slash, step = part.partition("/")\n        if slash and not (step.isdigit() and int(step) >= 1):\n            raise ValueError(f"{name}: step {step!r} in {part!r} must be a number of at least 1")\n        if span == "*":\n            a, b = lo, hi\n        else:\n            first, dash, last = span.partition("-")\n            a = number(first, i)\n            b = number(last, i) if dash else (hi if slash else a)\n            if b < a:\n                raise ValueError(f"{name}: range {span!r} runs backwards")\n        out |= set(range(a, b + 1, int(step) if slash else 1))\n    return {0 if (i == 4 and v == 7) else v for v in out}\n\n\ndef parse(line):\n    """None for a blank, comment or VAR=value line; else (the five value sets, the command)."""\n    text = line.strip()\n    if not text or text.startswith("#"):\n        return None\n    head = text.split()[0]\n    if "=" in head and not head[0].isdigit() and head[0] not in "*@":\n        return None\n    if head.startswith("@"):\n        if head not in MACROS:\n            raise ValueError(f"unknown macro {head}")\n        times, command = MACROS[head].split(), text[len(head):].strip()\n    else:\n        parts = text.split(None, 5)\n        if len(parts) < 6:\n            raise ValueError(f"no command after the time fields (found {len(parts)} fields, need 5 and a command)")\n        times, command = parts[:5], parts[5]\n    if not command.startswith("/"):\n        raise ValueError(f"the command must start with an absolute path, got {command.split()[0]!r} "\n                         f"(too many time fields?)")\n    return tuple(values(f, i) for i, f in enumerate(times)), command\n\n\ndef main():\n    if len(sys.argv) != 2:\n        sys.exit("usage: validate-crontab FILE")\n    jobs = 0\n    for n, line in enumerate(open(sys.argv[1]).read().splitlines(), 1):\n        try:\n            jobs += parse(line) is not None\n        except ValueError as e:\n            sys.exit(f"{sys.argv[1]}:{n}: {e}")\n    print(f"{sys.argv[1]}: OK ({jobs} jobs)")\n\n\nif __name__ == "__main__":\n    main()\n', ns)
jobs, env = [], []
for n, line in enumerate(read('/app/etc/crontab').splitlines(), 1):
    try:
        job = ns["parse"](line)
    except ValueError as e:
        fail(f"/app/etc/crontab:{n} is still rejected: {e}")
    if job:
        jobs.append(([sorted(s) for s in job[0]], " ".join(job[1].split())))
    elif "=" in line and not line.lstrip().startswith("#"):
        env.append(line.strip())
for job in [([[0], [3], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [1, 2, 3, 4, 5]], '/app/bin/sync.sh'), ([[0], [0], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [0, 1, 2, 3, 4, 5, 6]], '/app/bin/report.sh --quiet'), ([[0], [0, 6, 12, 18], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [0, 1, 2, 3, 4, 5, 6]], '/app/bin/rotate-logs.sh'), ([[0, 15, 30, 45], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [0, 1, 2, 3, 4, 5, 6]], '/app/bin/reindex.sh --quiet'), ([[10], [12], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12], [0]], '/app/bin/digest.sh')]:
    if job not in jobs:
        fail(f"no job runs {job[1]} on its intended schedule")
if len(jobs) != 5:
    fail(f"5 jobs expected, found {len(jobs)}")
if env != ['SHELL=/bin/bash', 'MAILTO=root']:
    fail("the variable assignments changed")
if hashlib.sha256(read("/app/bin/validate-crontab").encode()).hexdigest() != "479722f8be3d36d5780908161c0cb0dc8de272a695dfbd1db7740c288512662f":
    fail("the validator was modified")
print("PASS")
