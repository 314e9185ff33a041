from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Literal


class TaskError(ValueError):
    """A task on disk is broken. The message names the task, the file and (for TOML/YAML) the line."""

    def __init__(self, task_dir: Path | str, file: str, message: str, line: int | None = None):
        self.task_dir = Path(task_dir)
        self.file = file
        self.line = line
        where = f"{self.task_dir / file}" + (f":{line}" if line else "")
        super().__init__(f"{where}: {message}")


@dataclass
class TaskLimits:
    agent_timeout_sec: float = 600.0
    verifier_timeout_sec: float = 600.0
    build_timeout_sec: float = 600.0
    cpus: float = 1.0
    memory_mb: int = 2048
    storage_mb: int | None = None
    pids: int = 512


@dataclass
class TaskStep:
    """One `[[steps]]` entry of a Harbor multi-step task (`steps/<name>/`): its own instruction, tests and solution,
    run in order in one shared sandbox."""

    name: str
    instruction: str
    tests_dir: Path | None  # steps/<name>/tests, uploaded over the task-level tests/
    test_script: Path
    solution: Path | None = None
    agent_timeout_sec: float | None = None
    verifier_timeout_sec: float | None = None
    min_reward: float | None = None
    agent_user: str | None = None


@dataclass
class Task:
    """One task, whatever its format.

    `tests_dir` is uploaded to `/tests` and `test_script` (a path on the host) is run there by the verifier;
    `reward_mode` says how its result is read: Harbor writes `/logs/verifier/reward.{json,txt}`, TB v1 prints pytest
    results.
    """

    id: str
    path: Path
    format: Literal["harbor", "tb1"]
    instruction: str
    tests_dir: Path
    test_script: Path
    environment_dir: Path | None = None  # build context holding `dockerfile`
    dockerfile: Path | None = None
    docker_image: str | None = None  # prebuilt image instead of a Dockerfile
    workdir: str | None = None
    solution: Path | None = None
    allow_internet: bool = False
    limits: TaskLimits = field(default_factory=TaskLimits)
    metadata: dict = field(default_factory=dict)
    verifier_env: dict[str, str] = field(default_factory=dict)
    solution_env: dict[str, str] = field(default_factory=dict)  # [solution] env, for the reference solution
    agent_user: str | None = None  # [agent] user: the agent's commands run as this OS user (default root)
    verifier_user: str | None = None  # [verifier] user (default root)
    # [verifier] environment_mode = "separate": the tests run in a sandbox of their own, built from tests/ (or
    # [verifier.environment] docker_image), which receives only `artifacts` and /logs/artifacts from the agent's.
    verifier_environment: "Task | None" = None
    artifacts: list[str] = field(default_factory=list)
    steps: list[TaskStep] = field(default_factory=list)
    multi_step_reward_strategy: str = "mean"  # "mean" over steps (absent ones count 0) or "final"
    tests_base_dir: Path | None = None  # multi-step: task-level tests/ uploaded before the step's own

    def for_step(self, step: TaskStep) -> "Task":
        """The task as one of its steps sees it: that step's instruction, tests, solution and limits."""
        limits = replace(self.limits, agent_timeout_sec=step.agent_timeout_sec or self.limits.agent_timeout_sec,
                         verifier_timeout_sec=step.verifier_timeout_sec or self.limits.verifier_timeout_sec)
        return replace(self, instruction=step.instruction, tests_dir=step.tests_dir or self.tests_dir,
                       test_script=step.test_script, solution=step.solution, limits=limits,
                       agent_user=step.agent_user or self.agent_user, steps=[],
                       tests_base_dir=self.tests_dir if step.tests_dir and self.tests_dir.is_dir() else None)

    @property
    def reward_mode(self) -> str:
        return "pytest" if self.format == "tb1" else "reward_file"

    @property
    def category(self) -> str | None:
        return self.metadata.get("category")

    @property
    def family(self) -> str | None:
        return self.metadata.get("family")
