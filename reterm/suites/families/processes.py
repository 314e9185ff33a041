"""Families of kind "processes": small offline services (python3 scripts in /app) that refuse to start or cannot be
reached until the agent reads their error and fixes the environment. Checks look at files only (outputs, logs, pid
files), never at a live process: sandboxes may be snapshotted and forked, and processes do not travel with them."""

from __future__ import annotations

import random

from reterm.suites.families import Family
from reterm.suites.families.common import DOCKERFILE, WORDS, check_py, d, sha


def stale_pidfile(rng: random.Random):
    name = rng.choice(WORDS) + rng.choice(["-worker", "-indexer", "-sync", "d"])
    defect = rng.choice(["named", "config", "lock"])
    stale = rng.randint(20000, 32000)
    pidfile = rng.choice([f"/app/run/{name}.pid", f"/app/var/run/{name}.pid", f"/app/tmp/{name}.lock"])
    if defect == "lock":
        pidfile = pidfile.rsplit(".", 1)[0] + ".lock"
    jobs = {f"{rng.randint(100, 999)}-{w}.job": [rng.randint(1, 99) for _ in range(rng.randint(2, 5))]
            for w in rng.sample(WORDS, rng.randint(3, 6))}
    conf = f"[worker]\npidfile = {pidfile}\nqueue = /app/queue\n" if defect == "config" else None
    where = (f'cfg = configparser.ConfigParser()\ncfg.read("/app/etc/{name}.conf")\n'
             f'PIDFILE = cfg["worker"]["pidfile"]\n' if conf else f'PIDFILE = "{pidfile}"\n')
    msg = {"named": f'f"{name}: already running (pid {{old}}, pid file {{PIDFILE}})"',
           "config": f'f"{name}: already running (pid {{old}})"',
           "lock": f'f"{name}: lock {{PIDFILE}} is held by pid {{old}}"'}[defect]
    pidline = 'f"pid={os.getpid()}\\n"' if defect == "lock" else 'f"{os.getpid()}\\n"'
    service = d(f'''
        #!/usr/bin/env python3
        """{name}: one pass over the job queue in /app/queue; results go to /app/out/{name}.txt."""
        import configparser
        import os
        import sys

        ''') + where + d(f'''

        if os.path.exists(PIDFILE):
            old = open(PIDFILE).read().strip().removeprefix("pid=")
            sys.exit({msg})
        os.makedirs(os.path.dirname(PIDFILE), exist_ok=True)
        with open(PIDFILE, "w") as f:
            f.write({pidline})
        try:
            lines, total = [], 0
            for job in sorted(os.listdir("/app/queue")):
                values = [int(v) for v in open(os.path.join("/app/queue", job)).read().split()]
                total += sum(values)
                lines.append(f"{{job}} {{sum(values)}}\\n")
            os.makedirs("/app/out", exist_ok=True)
            with open("/app/out/{name}.txt", "w") as f:
                f.write("".join(lines) + f"total {{total}}\\n")
            os.makedirs("/app/log", exist_ok=True)
            with open("/app/log/{name}.log", "a") as f:
                f.write(f"started pid={{os.getpid()}}\\nprocessed {{len(lines)}} jobs\\n")
        finally:
            os.remove(PIDFILE)
        ''')
    want = "".join(f"{j} {sum(v)}\n" for j, v in sorted(jobs.items())) + f"total {sum(map(sum, jobs.values()))}\n"
    files = {f"environment/files/queue/{j}": (" ".join(map(str, v)) + "\n", False) for j, v in jobs.items()}
    files.update({
        f"environment/files/bin/{name}": (service, True),
        pidfile.replace("/app/", "environment/files/", 1): (("pid=" if defect == "lock" else "") + f"{stale}\n", False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            if ! kill -0 {stale} 2>/dev/null; then rm -f {pidfile}; fi
            /app/bin/{name}
            """), True),
        "tests/check.py": (check_py(f"""
            if read("/app/out/{name}.txt") != {want!r}:
                fail("/app/out/{name}.txt does not hold the results of one full pass over the queue")
            if "processed {len(jobs)} jobs" not in read("/app/log/{name}.log"):
                fail("the worker's log does not show a successful run")
            if os.path.exists({pidfile!r}):
                fail("{pidfile} is still there: the worker did not finish cleanly (or the stale file was kept)")
            if hashlib.sha256(read("/app/bin/{name}").encode()).hexdigest() != "{sha(service)}":
                fail("the worker script was modified")
            """ + (f"""
            if hashlib.sha256(read("/app/etc/{name}.conf").encode()).hexdigest() != "{sha(conf)}":
                fail("the worker's configuration was modified")
            """ if conf else "")), False),
    })
    if conf:
        files[f"environment/files/etc/{name}.conf"] = (conf, False)
    instruction = (f"Run the queue worker `/app/bin/{name}` so that it does one full pass over `/app/queue` and writes "
                   f"`/app/out/{name}.txt`. Do not edit the worker{' or its configuration' if conf else ''}.\n")
    return instruction, files, {"category": "stale_state", "defect": defect}


def _server_py(name: str, portfile: str, table: dict, fmt: str) -> str:
    """The server: binds any free port on 127.0.0.1, writes it to `portfile` in format `fmt`, serves one report."""
    write = {"plain": 'str(port) + "\\n"', "keyval": 'f"host=127.0.0.1\\nport={port}\\n"',
             "json": 'json.dumps({"host": "127.0.0.1", "port": port, "pid": os.getpid()}) + "\\n"'}[fmt]
    return d(f'''
        #!/usr/bin/env python3
        """{name} stats server: answers one `REPORT` request on 127.0.0.1, then exits (or after 60 s idle)."""
        import json
        import os
        import socket

        PORT_FILE = "{portfile}"
        TABLE = {table!r}
        srv = socket.socket()
        srv.bind(("127.0.0.1", 0))  # any free port: see PORT_FILE
        srv.listen(5)
        srv.settimeout(60)
        port = srv.getsockname()[1]
        os.makedirs(os.path.dirname(PORT_FILE), exist_ok=True)
        with open(PORT_FILE + ".tmp", "w") as f:
            f.write({write})
        os.replace(PORT_FILE + ".tmp", PORT_FILE)
        print(f"{name}-server: listening on 127.0.0.1, port written to {{PORT_FILE}}", flush=True)
        while True:
            try:
                conn, _ = srv.accept()
            except socket.timeout:
                raise SystemExit("{name}-server: no request within 60 s, exiting")
            with conn:
                if conn.makefile().readline().strip() != "REPORT":
                    conn.sendall(b"ERR unknown request\\n")
                    continue
                conn.sendall("".join(f"{{k}} {{v}}\\n" for k, v in sorted(TABLE.items())).encode())
                print("{name}-server: served one report, exiting", flush=True)
                break
        ''')


def _client_py(name: str, flag: str, default: int) -> str:
    """The client: takes the port from `flag` (an option or a variable), else `default`."""
    arg = {"--port": f'ap.add_argument("--port", type=int, default={default})',
           "--addr": f'ap.add_argument("--addr", default="127.0.0.1:{default}", help="host:port")',
           "env": ""}[flag]
    port_expr = {"--port": "args.port", "--addr": 'int(args.addr.rsplit(":", 1)[1])',
                 "env": f'int(os.environ.get("{name.upper()}_PORT", "{default}"))'}[flag]
    return d(f'''
        #!/usr/bin/env python3
        """Fetches the report from the {name} server and saves it to /app/out/{name}-report.txt."""
        import argparse
        import os
        import socket
        import sys

        ap = argparse.ArgumentParser(description=__doc__)
        ''') + (arg + "\n" if arg else "") + d(f'''

        args = ap.parse_args()
        port = {port_expr}
        try:
            conn = socket.create_connection(("127.0.0.1", port), timeout=10)
        except OSError as e:
            sys.exit(f"{name}-client: cannot connect to 127.0.0.1:{{port}}: {{e}}")
        conn.sendall(b"REPORT\\n")
        data = conn.makefile().read()
        os.makedirs("/app/out", exist_ok=True)
        with open("/app/out/{name}-report.txt", "w") as f:
            f.write(data)
        print(f"{name}-client: saved {{len(data.splitlines())}} lines")
        ''')


def port_file(rng: random.Random):
    name = rng.choice(WORDS)
    default = rng.choice([8000, 8080, 5000, 9000, 7070]) + rng.randint(0, 9)
    fmt = rng.choice(["plain", "keyval", "json"])
    flag = rng.choice(["--port", "env", "--addr"])
    stale_file = rng.random() < 0.5
    portfile = rng.choice([f"/app/run/{name}.port", f"/app/var/{name}-server.port", f"/app/tmp/{name}.port"])
    table = {w: rng.randint(10, 9999) for w in rng.sample(WORDS, rng.randint(3, 6))}
    server, client = _server_py(name, portfile, table, fmt), _client_py(name, flag, default)
    get = {"plain": f"cat {portfile}", "keyval": f"sed -n 's/^port=//p' {portfile}",
           "json": f"python3 -c 'import json; print(json.load(open(\"{portfile}\"))[\"port\"])'"}[fmt]
    run = {"--port": '--port "$port"', "--addr": '--addr "127.0.0.1:$port"', "env": ""}[flag]
    run = (f'{name.upper()}_PORT="$port" ' if flag == "env" else "") + f"python3 /app/client.py {run}".rstrip()
    usage = {"--port": "`--port`", "--addr": "`--addr host:port`", "env": f"the `{name.upper()}_PORT` variable"}[flag]
    want = "".join(f"{k} {v}\n" for k, v in sorted(table.items()))
    files = {
        "environment/files/server.py": (server, True),
        "environment/files/client.py": (client, True),
        "environment/files/README.md": (f"# {name}\n\nStart the server with `python3 /app/server.py`, then fetch the "
                                        f"report with `python3 /app/client.py` (it connects to port {default}; "
                                        f"override with {usage}).\n", False),
        "environment/Dockerfile": (DOCKERFILE, False),
        "solution/solve.sh": (d(f"""
            #!/bin/bash
            set -e
            rm -f {portfile}
            python3 /app/server.py > /tmp/{name}-server.log 2>&1 &
            for i in $(seq 100); do [ -s {portfile} ] && break; sleep 0.1; done
            port=$({get})
            {run}
            wait
            """), True),
        "tests/check.py": (check_py(f"""
            if read("/app/out/{name}-report.txt") != {want!r}:
                fail("/app/out/{name}-report.txt does not hold the server's report")
            for p, h in {{"/app/server.py": "{sha(server)}", "/app/client.py": "{sha(client)}"}}.items():
                if hashlib.sha256(read(p).encode()).hexdigest() != h:
                    fail(f"{{p}} was modified")
            """), False),
    }
    if stale_file:  # left by an earlier run: the port in it is closed now
        files[portfile.replace("/app/", "environment/files/", 1)] = (
            {"plain": f"{default + 31}\n", "keyval": f"host=127.0.0.1\nport={default + 31}\n",
             "json": f'{{"host": "127.0.0.1", "port": {default + 31}, "pid": {rng.randint(20000, 30000)}}}\n'}[fmt],
            False)
    instruction = (f"Get the report of the {name} server into `/app/out/{name}-report.txt`: start `/app/server.py` and "
                   f"fetch the report with `/app/client.py` (see `/app/README.md`). Both run on this machine "
                   f"(127.0.0.1); do not edit either script.\n")
    return instruction, files, {"category": "wrong_port", "defect": f"{fmt}/{flag}" + ("/stale" if stale_file else "")}


def service_logdir(rng: random.Random):
    name = rng.choice(WORDS)
    defect = rng.choice(["log_dir", "run_dir", "both_dirs", "data_path"])
    log_dir = rng.choice([f"/app/var/log/{name}", f"/app/logs/{name}", "/app/log"])
    run_dir = rng.choice([f"/app/var/run/{name}", "/app/run", f"/app/state/{name}"])
    data = rng.choice(["orders", "visits", "readings", "events"])
    real = rng.choice([f"/app/data/{data}.csv", f"/app/data/2024/{data}.csv", f"/app/dataset/{data}.csv"])
    configured = real if defect != "data_path" else rng.choice(
        [p for p in [f"/app/data/{data}.csv", f"/app/data/{data}-latest.csv", f"/app/input/{data}.csv"] if p != real])
    keys = rng.sample(WORDS, rng.randint(3, 5))
    rows = [(rng.choice(keys), rng.randint(1, 500)) for _ in range(rng.randint(8, 16))]
    conf = f"[service]\nlog_dir = {log_dir}\nrun_dir = {run_dir}\n\n[data]\ninput = {configured}\n"
    service = d(f'''
        #!/usr/bin/env python3
        """{name} summariser: reads the input named in /app/etc/{name}.ini, writes /app/out/{name}-summary.txt."""
        import configparser
        import os
        import sys

        cfg = configparser.ConfigParser()
        cfg.read("/app/etc/{name}.ini")
        log_path = os.path.join(cfg["service"]["log_dir"], "{name}.log")
        pid_path = os.path.join(cfg["service"]["run_dir"], "{name}.pid")
        try:
            log = open(log_path, "a")
        except OSError as e:
            sys.exit(f"{name}: cannot open log file {{log_path}}: {{e.strerror}}")
        try:
            with open(pid_path, "w") as f:
                f.write(f"{{os.getpid()}}\\n")
        except OSError as e:
            sys.exit(f"{name}: cannot write pid file {{pid_path}}: {{e.strerror}}")
        try:
            source = cfg["data"]["input"]
            if not os.path.isfile(source):
                log.write(f"ERROR input file {{source}} does not exist\\n")
                sys.exit(f"{name}: startup failed, see {{log_path}}")
            totals = {{}}
            for line in open(source).read().splitlines()[1:]:
                key, value = line.split(",")
                totals[key] = totals.get(key, 0) + int(value)
            os.makedirs("/app/out", exist_ok=True)
            with open("/app/out/{name}-summary.txt", "w") as f:
                f.write("".join(f"{{k}}={{v}}\\n" for k, v in sorted(totals.items())))
            log.write(f"INFO ready: summarised {{len(totals)}} keys\\n")
        finally:
            os.remove(pid_path)
        ''')
    totals: dict[str, int] = {}
    for k, v in rows:
        totals[k] = totals.get(k, 0) + v
    want = "".join(f"{k}={v}\n" for k, v in sorted(totals.items()))
    fix = {"log_dir": f"mkdir -p {log_dir}", "run_dir": f"mkdir -p {run_dir}",
           "both_dirs": f"mkdir -p {log_dir} {run_dir}",
           "data_path": f"sed -i 's|^input = .*|input = {real}|' /app/etc/{name}.ini"}[defect]
    gone = {"log_dir": [log_dir], "run_dir": [run_dir], "both_dirs": [log_dir, run_dir]}.get(defect, [])
    made = [p for p in (log_dir, run_dir) if p not in gone]
    dockerfile = DOCKERFILE + (f"RUN mkdir -p {' '.join(made)}\n" if made else "")
    files = {
        f"environment/files/bin/{name}-svc": (service, True),
        f"environment/files/etc/{name}.ini": (conf, False),
        real.replace("/app/", "environment/files/", 1): ("key,value\n" + "".join(f"{k},{v}\n" for k, v in rows),
                                                         False),
        "environment/Dockerfile": (dockerfile, False),
        "solution/solve.sh": (f"#!/bin/bash\nset -e\n{fix}\n/app/bin/{name}-svc\n", True),
        "tests/check.py": (check_py(f"""
            if read("/app/out/{name}-summary.txt") != {want!r}:
                fail("/app/out/{name}-summary.txt is missing or wrong")
            if "INFO ready" not in read("{log_dir}/{name}.log"):
                fail("the service's log {log_dir}/{name}.log does not show a successful start")
            if hashlib.sha256(read("/app/bin/{name}-svc").encode()).hexdigest() != "{sha(service)}":
                fail("the service was modified")
            """), False),
    }
    instruction = (f"Start the service `/app/bin/{name}-svc` (settings in `/app/etc/{name}.ini`) so that it writes "
                   f"`/app/out/{name}-summary.txt`. It fails at start: fix what it needs without editing the service, "
                   f"and keep its log and run directories where the settings put them.\n")
    return instruction, files, {"category": "missing_path", "defect": defect}


FAMILIES = [
    Family("stale-pidfile", stale_pidfile, kind="processes"),
    Family("port-file", port_file, kind="processes"),
    Family("service-logdir", service_logdir, kind="processes"),
]
