"""Where the test command's CPU goes: with RETERM_TEST_CPU_LOG=FILE, each test appends one JSON line to FILE
(`scripts/test.sh`'s two pytests may share it: each line names its process):

    {"test": nodeid, "pid": ..., "wall": s, "cpu": s, "self": s, "children": s, "docker": s, "machine": s}

`self` is this pytest's CPU (its threads: torch, an in-process vLLM engine), `children` that of the processes it
started and reaped during the test (sandboxes, recipes, CLI runs), `docker` that of the Docker engine's daemons and
what they reaped (containers), `cpu` their sum, `machine` the whole machine's busy CPU over the test (the other
lane's included). The suite's CPU, not its wall, is what a 2-core machine runs out of (both lanes keep it about 95%
busy), so this is what to read before cutting a test. Summarise with `python tests/cpu_account.py FILE`.

What no process is charged with: the kernel's work for sandboxes done in its own threads (tearing down namespaces,
mounts and cgroups), and a daemon that ended during the test. So `cpu` is a lower bound, far below the truth for
tests that start many local sandboxes (a local trial costs about 170 ms of the machine's CPU, of which a few tens
show up here); `machine` is the truth for a test run alone (RETERM_TEST_SERIAL=1 or one file).
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time
from pathlib import Path

import pytest

_TICK = os.sysconf("SC_CLK_TCK")
_DAEMONS = ("dockerd", "containerd", "containerd-shim", "containerd-shim-runc-v2", "runc")


def _docker_cpu() -> dict[int, float]:
    """CPU seconds of each Docker daemon now running, with the children it reaped, by pid (none without an engine)."""
    found = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
        except OSError:
            continue
        name, rest = stat[stat.index("(") + 1:stat.rindex(")")], stat[stat.rindex(")") + 2:].split()
        if name in _DAEMONS or name.startswith("containerd-shim"):
            found[int(d)] = sum(int(x) for x in rest[11:15]) / _TICK  # utime stime cutime cstime
    return found


def _docker_delta(before: dict[int, float], after: dict[int, float]) -> float:
    """What the daemons running at the end used during the test (one started meanwhile: all of it); a daemon that
    ended during the test (an engine a test stopped) takes its CPU with it, so this is a lower bound."""
    return sum(cpu - before.get(pid, 0.0) for pid, cpu in after.items() if cpu >= before.get(pid, 0.0))


def _machine_busy() -> float:
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]]
    return (sum(v[:8]) - v[3] - v[4]) / _TICK  # all but idle and iowait


def _usage():
    s, c = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return (time.monotonic(), s.ru_utime + s.ru_stime, c.ru_utime + c.ru_stime, _docker_cpu(), _machine_busy())


class CpuAccount:
    def __init__(self, path: str):
        self.path = path

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item, nextitem):
        t0, own0, kids0, docker0, busy0 = _usage()
        yield
        t1, own1, kids1, docker1, busy1 = _usage()
        own, kids, docker = round(own1 - own0, 2), round(kids1 - kids0, 2), round(_docker_delta(docker0, docker1), 2)
        row = {"test": item.nodeid, "pid": os.getpid(), "wall": round(t1 - t0, 2), "cpu": round(own + kids + docker, 2),
               "self": own, "children": kids, "docker": docker, "machine": round(busy1 - busy0, 2)}
        with open(self.path, "a") as f:  # one short write a line: two pytests may append at once
            f.write(json.dumps(row) + "\n")


def pytest_configure(config):
    """Registered by tests/conftest.py (or `-p cpu_account`); records only under RETERM_TEST_CPU_LOG."""
    if os.environ.get("RETERM_TEST_CPU_LOG"):
        config.pluginmanager.register(CpuAccount(os.environ["RETERM_TEST_CPU_LOG"]), "reterm-cpu-account")


def summarise(path: str, top: int = 40) -> str:
    rows = [json.loads(x) for x in Path(path).read_text().splitlines() if x.strip()]
    if not rows:
        return f"{path}: no tests recorded"
    by_file: dict[str, float] = {}
    for r in rows:
        f = r["test"].split("::")[0]
        by_file[f] = by_file.get(f, 0.0) + r["cpu"]
    total = sum(r["cpu"] for r in rows)
    out = [f"{len(rows)} tests, {total / 60:.1f} CPU-min in all ({sum(r['wall'] for r in rows) / 60:.1f} min of "
           f"wall summed over both pytests)", "", "CPU s  wall s  self  children  docker  test"]
    for r in sorted(rows, key=lambda r: -r["cpu"])[:top]:
        out.append(f"{r['cpu']:6.1f} {r['wall']:7.1f} {r['self']:6.1f} {r['children']:8.1f} {r['docker']:7.1f}  "
                   f"{r['test']}")
    out += ["", "CPU s  file"] + [f"{v:6.1f}  {f}" for f, v in sorted(by_file.items(), key=lambda x: -x[1])[:top]]
    return "\n".join(out)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/cpu_account.py FILE (written by a run with RETERM_TEST_CPU_LOG=FILE)")
    print(summarise(sys.argv[1]))
