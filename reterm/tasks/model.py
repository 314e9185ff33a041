from __future__ import annotations

from dataclasses import dataclass, field
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

    @property
    def reward_mode(self) -> str:
        return "pytest" if self.format == "tb1" else "reward_file"

    @property
    def category(self) -> str | None:
        return self.metadata.get("category")

    @property
    def family(self) -> str | None:
        return self.metadata.get("family")
