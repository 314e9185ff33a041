"""The baselines that need no model: `oracle` (the task's reference solution) and `nop` (does nothing).

Both act through the sandbox's persistent shell, exactly as a model's commands would.
"""

from __future__ import annotations

import contextlib
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
