"""The baselines that need no model: `oracle` (the task's reference solution), `nop` (does nothing) and the generic
shortcuts (`SHORTCUTS`), which a task's verifier must score 0: they stand for what RL would reinforce if a verifier
rewarded something other than the outcome.

All act through the sandbox's persistent shell, exactly as a model's commands would.
"""

from __future__ import annotations

import contextlib
import re
import shlex
from dataclasses import dataclass, field

from reterm.sandbox import ExecResult, Sandbox
from reterm.tasks import Task

SOLUTION_DIR = "/solution"


@dataclass
class AgentOutcome:
    steps: list[ExecResult] = field(default_factory=list)
    error: str | None = None  # the agent could not act at all (e.g. the task ships no solution)
    trajectory: object | None = None  # model agents: the episode's Trajectory (already verified)


class NopAgent:
    name = "nop"

    def trial(self):
        """A context around a whole trial (set-up, acting, verifying); a model agent's policy uses it."""
        return contextlib.nullcontext()

    def run(self, sandbox: Sandbox, task: Task) -> AgentOutcome:
        return AgentOutcome()


class OracleAgent:
    name = "oracle"
    trial = NopAgent.trial

    def run(self, sandbox: Sandbox, task: Task) -> AgentOutcome:
        if task.solution is None:
            return AgentOutcome(error=f"{task.path} ships no reference solution "
                                      f"({'solution/solve.sh' if task.format == 'harbor' else 'solution.sh'})")
        sandbox.upload(task.solution.parent if task.format == "harbor" else task.solution,
                       SOLUTION_DIR if task.format == "harbor" else f"{SOLUTION_DIR}/solution.sh")
        # Harbor's [solution] env: the reference solution runs with these variables.
        env = " ".join(shlex.quote(f"{k}={v}") for k, v in task.solution_env.items())
        command = f"{'env ' + env + ' ' if env else ''}bash {SOLUTION_DIR}/{task.solution.name}"
        return AgentOutcome(steps=[sandbox.exec(command, timeout=task.limits.agent_timeout_sec)])


# Generic shortcuts: solutions that know nothing of a task. `{workdir}` is the task's work directory (/app when it
# names none); `{paths}` the absolute paths its instruction names, quoted. Each ends with `true`: a shortcut's own
# failure is not the point, the verifier's verdict on what it left is.
SHORTCUTS = {
    # emptying the work directory
    "wipe": "find {workdir} -mindepth 1 -delete 2>/dev/null; true",
    # deleting it
    "delete": "cd / && rm -rf {workdir} 2>/dev/null; true",
    # every path the instruction names, created with placeholder content (a trailing / makes a directory)
    "placeholders": ("for p in {paths}; do case \"$p\" in */) mkdir -p \"$p\" ;; *) [ -e \"$p\" ] || "
                     "{{ mkdir -p \"$(dirname \"$p\")\" && echo placeholder > \"$p\"; }} ;; esac; done 2>/dev/null; true"),
    # everything executable (and writable)
    "chmod-all": "chmod -R a+rwx {workdir} 2>/dev/null; true",
    # every script present, run as it is, each for at most 5 s (the bundled tasks' scripts finish in well under 1 s)
    "run-all": ("cd {workdir} 2>/dev/null && find {workdir} -type f \\( -name '*.sh' -o -name '*.py' -o -perm -u+x \\) "
                "2>/dev/null | sort | while read -r f; do case \"$f\" in *.py) timeout 5 python3 \"$f\" ;; "
                "*.sh) timeout 5 bash \"$f\" ;; *) timeout 5 \"$f\" ;; esac </dev/null >/dev/null 2>&1; done; true"),
}
_PATH = re.compile(r"(?<![\w.~$])(/(?:[\w.+@-]+/)*[\w.+@-]*/?)")


def instruction_paths(instruction: str) -> list[str]:
    """The absolute paths an instruction names (in backticks or not), in order, without repeats."""
    seen: list[str] = []
    for m in _PATH.finditer(instruction):
        p = m.group(1).rstrip(".")
        if len(p) > 1 and p not in seen:
            seen.append(p)
    return seen


class ShortcutAgent:
    """One of `SHORTCUTS`, run as a single command."""

    trial = NopAgent.trial

    def __init__(self, shortcut: str):
        if shortcut not in SHORTCUTS:
            raise ValueError(f"unknown shortcut {shortcut!r}; choose one of {', '.join(SHORTCUTS)}")
        self.shortcut = shortcut
        self.name = f"shortcut:{shortcut}"

    def command(self, task: Task) -> str:
        paths = " ".join(shlex.quote(p) for p in instruction_paths(task.instruction)) or "''"
        return SHORTCUTS[self.shortcut].format(workdir=shlex.quote(task.workdir or "/app"), paths=paths)

    def run(self, sandbox: Sandbox, task: Task) -> AgentOutcome:
        return AgentOutcome(steps=[sandbox.exec(self.command(task), timeout=task.limits.agent_timeout_sec)])
