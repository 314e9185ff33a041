"""Loaders for Harbor (`task.toml`) and Terminal-Bench v1 (`task.yaml`) task directories.

Every problem is a `TaskError` naming the task dir, the file and, where the format has lines, the line.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import replace
from pathlib import Path

import yaml

from reterm.tasks.model import Task, TaskError, TaskLimits, TaskStep

HARBOR_FILE = "task.toml"
TB1_FILE = "task.yaml"
_SIZE = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([kKmMgGtT]?)(i?[bB])?\s*$")
_SIZE_MB = {"": 1 / (1024 * 1024), "k": 1 / 1024, "m": 1, "g": 1024, "t": 1024 * 1024}


def _toml_line(text: str, table: str | None, key: str) -> int | None:
    current = None
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        m = re.match(r"^\[\s*([^\]]+?)\s*\]$", line)
        if m:
            current = m.group(1)
            continue
        if current == table and re.match(rf"^{re.escape(key)}\s*=", line):
            return n
    return None


def _yaml_line(text: str, key: str) -> int | None:
    for n, raw in enumerate(text.splitlines(), 1):
        if re.match(rf"^{re.escape(key)}\s*:", raw):
            return n
    return None


class _Fields:
    """Typed access to one table of a parsed config, with errors that point at the offending line."""

    def __init__(self, task_dir: Path, file: str, text: str, data: dict, table: str | None, line_of):
        self.task_dir, self.file, self.text, self.data, self.table, self._line_of = (
            task_dir, file, text, data, table, line_of,
        )

    def error(self, key: str, message: str) -> TaskError:
        name = f"{self.table}.{key}" if self.table else key
        return TaskError(self.task_dir, self.file, f"`{name}` {message}", self._line_of(key))

    def number(self, key: str, default: float | None, minimum: float = 0.0) -> float | None:
        value = self.data.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.error(key, f"must be a number, got {value!r}")
        if value <= minimum:
            raise self.error(key, f"must be greater than {minimum:g}, got {value!r}")
        return float(value)

    def boolean(self, key: str, default: bool) -> bool:
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.error(key, f"must be true or false, got {value!r}")
        return value

    def string(self, key: str, default: str | None = None) -> str | None:
        value = self.data.get(key, default)
        if value is not None and not isinstance(value, str):
            raise self.error(key, f"must be a string, got {value!r}")
        return value

    def size_mb(self, key: str) -> int | None:
        """Deprecated Harbor sizes such as `memory = "2G"`; a bare number means megabytes."""
        value = self.data.get(key)
        if value is None:
            return None
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return int(value)
        m = _SIZE.match(str(value))
        if not m:
            raise self.error(key, f"must be a size like \"2G\" or \"512M\", got {value!r}")
        return max(1, int(float(m.group(1)) * _SIZE_MB[m.group(2).lower()]))

    def table_of(self, key: str) -> dict:
        value = self.data.get(key, {})
        if not isinstance(value, dict):
            raise TaskError(self.task_dir, self.file, f"`[{key}]` must be a table", self._line_of(key))
        return value


def _read_text(task_dir: Path, name: str) -> str:
    try:
        return (task_dir / name).read_text(encoding="utf-8")
    except UnicodeDecodeError as e:
        raise TaskError(task_dir, name, f"is not UTF-8 text ({e.reason} at byte {e.start})") from None


def _require_file(task_dir: Path, rel: str, what: str) -> Path:
    p = task_dir / rel
    if not p.is_file():
        raise TaskError(task_dir, rel, f"is missing ({what})")
    return p


def _parse_toml(task_dir: Path) -> tuple[str, dict]:
    text = _read_text(task_dir, HARBOR_FILE)
    try:
        return text, tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = re.search(r"line (\d+)", str(e))
        raise TaskError(task_dir, HARBOR_FILE, f"invalid TOML: {e}", int(m.group(1)) if m else None) from None


def _nth_line(text: str, pattern: str, n: int) -> int | None:
    hits = [i for i, line in enumerate(text.splitlines(), 1) if re.match(pattern, line.strip())]
    return hits[n] if n < len(hits) else None


def _refuse_unbuilt(task_dir: Path, text: str, env: "_Fields") -> None:
    """Harbor features ReTerm does not build are refused by name, never silently ignored."""
    if env.string("os") not in (None, "linux"):
        raise env.error("os", "must be \"linux\": ReTerm runs Linux sandboxes only")
    for key in ("gpus", "tpus"):
        if env.data.get(key):
            raise env.error(key, "asks for accelerators, which ReTerm's sandboxes do not provide")
    if (task_dir / "environment" / "docker-compose.yaml").is_file() or \
            (task_dir / "environment" / "docker-compose.yml").is_file():
        raise TaskError(task_dir, "environment/docker-compose.yaml",
                        "multi-container environments (docker-compose) are not supported by ReTerm")


def _env_table(fields: _Fields) -> dict[str, str]:
    """An `env = {...}` table of strings or numbers (Harbor's [verifier] env and [solution] env)."""
    values = fields.table_of("env")
    for k, v in values.items():
        if not isinstance(v, (str, int, float)) or isinstance(v, bool):
            raise fields.error("env", f"values must be strings or numbers, got {k} = {v!r}")
    return {k: str(v) for k, v in values.items()}


def _artifacts(task_dir: Path, text: str, value, where: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) and v.startswith("/") for v in value):
        raise TaskError(task_dir, HARBOR_FILE, f"`{where}` must be a list of absolute paths, got {value!r}",
                        _nth_line(text, r"^artifacts\s*=", 0))
    return list(value)


def _verifier_environment(task_dir: Path, text: str, verifier: _Fields, env: _Fields, limits: TaskLimits,
                          artifacts: list[str]) -> Task | None:
    mode = verifier.string("environment_mode")
    venv_table = verifier.data.get("environment")
    if mode not in (None, "shared", "separate"):
        raise verifier.error("environment_mode", f"must be \"shared\" or \"separate\", got {mode!r}")
    if mode == "shared" and venv_table is not None:
        raise verifier.error("environment_mode", "is \"shared\" but [verifier.environment] is set")
    if mode is None and venv_table is None or mode == "shared":
        if artifacts:
            raise TaskError(task_dir, HARBOR_FILE, "`artifacts` only apply with [verifier] environment_mode = "
                            "\"separate\"", _nth_line(text, r"^artifacts\s*=", 0))
        return None
    venv = _Fields(task_dir, HARBOR_FILE, text, venv_table or {}, "verifier.environment",
                   lambda k: _toml_line(text, "verifier.environment", k))
    image = venv.string("docker_image")
    dockerfile = task_dir / "tests" / "Dockerfile"
    if image is None and not dockerfile.is_file():
        raise TaskError(task_dir, "tests/Dockerfile", "is missing: [verifier] environment_mode = \"separate\" "
                        "builds the verifier's sandbox from tests/ (which must provide /tests/test.sh), or from "
                        "[verifier.environment] docker_image")
    vlimits = replace(limits, cpus=venv.number("cpus", limits.cpus),
                      memory_mb=int(venv.number("memory_mb", None) or venv.size_mb("memory") or limits.memory_mb))
    return Task(id=f"{task_dir.name}.verifier", path=task_dir, format="harbor", instruction="",
                tests_dir=task_dir / "tests", test_script=task_dir / "tests" / "test.sh",
                environment_dir=dockerfile.parent if image is None else None,
                dockerfile=dockerfile if image is None else None, docker_image=image,
                workdir=venv.string("workdir"),
                allow_internet=venv.boolean("allow_internet", env.boolean("allow_internet", True)), limits=vlimits)


_STEP_KEYS = {"name", "min_reward", "agent", "verifier"}


def _steps(task_dir: Path, text: str, data) -> list[TaskStep]:
    if not isinstance(data, list) or not all(isinstance(d, dict) for d in data) or not data:
        raise TaskError(task_dir, HARBOR_FILE, "`steps` must be a non-empty array of tables ([[steps]])")
    steps: list[TaskStep] = []
    for i, d in enumerate(data):
        line = _nth_line(text, r"^\[\[\s*steps\s*\]\]", i)
        unknown = sorted(set(d) - _STEP_KEYS)
        if unknown:
            raise TaskError(task_dir, HARBOR_FILE, f"[[steps]] #{i + 1}: {', '.join(unknown)} not supported by "
                            f"ReTerm (supported: {', '.join(sorted(_STEP_KEYS))})", line)
        name = d.get("name")
        if not isinstance(name, str) or not re.match(r"^[A-Za-z0-9._-]+$", name):
            raise TaskError(task_dir, HARBOR_FILE, f"[[steps]] #{i + 1}: `name` must name a dir under steps/, "
                            f"got {name!r}", line)
        agent, verifier = d.get("agent", {}), d.get("verifier", {})
        for key, value in (("agent", agent), ("verifier", verifier)):
            if not isinstance(value, dict):
                raise TaskError(task_dir, HARBOR_FILE, f"[[steps]] {name}: `{key}` must be a table, got {value!r}",
                                line)
        if set(verifier) - {"timeout_sec"} or set(agent) - {"timeout_sec", "user"}:
            extra = sorted((set(verifier) - {"timeout_sec"}) | (set(agent) - {"timeout_sec", "user"}))
            raise TaskError(task_dir, HARBOR_FILE, f"[[steps]] {name}: {', '.join(extra)} not supported by ReTerm "
                            f"(per-step separate verifiers included)", line)
        min_reward = d.get("min_reward")
        for key, value in (("min_reward", min_reward), ("agent.timeout_sec", agent.get("timeout_sec")),
                           ("verifier.timeout_sec", verifier.get("timeout_sec"))):
            if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise TaskError(task_dir, HARBOR_FILE, f"[[steps]] {name}: `{key}` must be a number", line)
        rel = Path("steps") / name
        instruction = _read_text(task_dir, str(_require_file(task_dir, str(rel / "instruction.md"),
                                                             f"step {name}'s instruction").relative_to(task_dir)))
        own_tests = task_dir / rel / "tests"
        script = own_tests / "test.sh" if (own_tests / "test.sh").is_file() else task_dir / "tests" / "test.sh"
        if not script.is_file():
            raise TaskError(task_dir, str(rel / "tests/test.sh"), f"is missing (step {name}'s verifier; "
                            f"tests/test.sh at the task root would serve as its fallback)")
        solution = task_dir / rel / "solution" / "solve.sh"
        steps.append(TaskStep(name=name, instruction=instruction, tests_dir=own_tests if own_tests.is_dir() else None,
                              test_script=script, solution=solution if solution.is_file() else None,
                              agent_timeout_sec=agent.get("timeout_sec"),
                              verifier_timeout_sec=verifier.get("timeout_sec"),
                              min_reward=None if min_reward is None else float(min_reward),
                              agent_user=agent.get("user")))
    return steps


def load_harbor(task_dir: Path) -> Task:
    text, data = _parse_toml(task_dir)
    top = _Fields(task_dir, HARBOR_FILE, text, data, None, lambda k: _toml_line(text, None, k))

    def table(name: str) -> _Fields:
        return _Fields(task_dir, HARBOR_FILE, text, top.table_of(name), name, lambda k: _toml_line(text, name, k))

    top.string("version")
    metadata = dict(top.table_of("metadata"))
    for key in ("family", "category", "kind", "split", "heldout"):  # shown and grouped by as text
        table("metadata").string(key)
    verifier, agent, env, solution_table = table("verifier"), table("agent"), table("environment"), table("solution")
    _refuse_unbuilt(task_dir, text, env)
    verifier_env, solution_env = _env_table(verifier), _env_table(solution_table)

    limits = TaskLimits(
        agent_timeout_sec=agent.number("timeout_sec", 600.0),
        verifier_timeout_sec=verifier.number("timeout_sec", 600.0),
        build_timeout_sec=env.number("build_timeout_sec", 600.0),
        cpus=env.number("cpus", 1.0),
        memory_mb=int(env.number("memory_mb", None) or env.size_mb("memory") or 2048),
        storage_mb=int(env.number("storage_mb", None) or env.size_mb("storage") or 0) or None,
    )
    steps = _steps(task_dir, text, data["steps"]) if "steps" in data else []
    strategy = top.string("multi_step_reward_strategy", "mean")
    if strategy not in ("mean", "final"):
        raise top.error("multi_step_reward_strategy", f"must be \"mean\" or \"final\", got {strategy!r}")
    if steps:
        instruction = steps[0].instruction
        test_script = steps[0].test_script
    else:
        instruction = _read_text(task_dir, _require_file(task_dir, "instruction.md", "the task's instruction").name)
        if not instruction.strip():
            raise TaskError(task_dir, "instruction.md", "is empty")
        test_script = _require_file(task_dir, "tests/test.sh", "the verifier entry point")
    docker_image = env.string("docker_image")
    dockerfile = task_dir / "environment" / "Dockerfile"
    if not dockerfile.is_file() and not docker_image:
        raise TaskError(
            task_dir, "environment/Dockerfile", "is missing and task.toml sets no [environment] docker_image"
        )
    artifacts = _artifacts(task_dir, text, data["artifacts"], "artifacts") if "artifacts" in data else []
    solution = task_dir / "solution" / "solve.sh"
    return Task(
        id=task_dir.name,
        path=task_dir,
        format="harbor",
        instruction=instruction,
        tests_dir=task_dir / "tests",
        test_script=test_script,
        environment_dir=dockerfile.parent if dockerfile.is_file() else None,
        dockerfile=dockerfile if dockerfile.is_file() else None,
        docker_image=docker_image,
        workdir=env.string("workdir"),
        solution=solution if solution.is_file() else None,
        # Harbor's default is true; the network still needs the user's --allow-internet as well.
        allow_internet=env.boolean("allow_internet", True),
        limits=limits,
        metadata=metadata,
        verifier_env=verifier_env,
        solution_env=solution_env,
        agent_user=agent.string("user"),
        verifier_user=verifier.string("user"),
        verifier_environment=_verifier_environment(task_dir, text, verifier, env, limits, artifacts),
        artifacts=artifacts,
        steps=steps,
        multi_step_reward_strategy=strategy,
    )


def load_tb1(task_dir: Path) -> Task:
    text = _read_text(task_dir, TB1_FILE)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        raise TaskError(task_dir, TB1_FILE, f"invalid YAML: {e}", mark.line + 1 if mark else None) from None
    if not isinstance(data, dict):
        raise TaskError(task_dir, TB1_FILE, "must be a mapping of keys (instruction, category, ...)", 1)
    f = _Fields(task_dir, TB1_FILE, text, data, None, lambda k: _yaml_line(text, k))
    instruction = f.string("instruction")
    if not instruction or not instruction.strip():
        raise f.error("instruction", "is required and must not be empty")
    tags = data.get("tags", [])
    if not isinstance(tags, list):
        raise f.error("tags", f"must be a list, got {tags!r}")
    limits = TaskLimits(
        agent_timeout_sec=f.number("max_agent_timeout_sec", 360.0),
        verifier_timeout_sec=f.number("max_test_timeout_sec", 60.0),
    )
    dockerfile = _require_file(task_dir, "Dockerfile", "the task's environment")
    run_tests = _require_file(task_dir, "run-tests.sh", "the test runner")
    tests_dir = task_dir / "tests"
    if not tests_dir.is_dir():
        raise TaskError(task_dir, "tests", "is missing (the pytest files run by run-tests.sh)")
    solution = task_dir / "solution.sh"
    f.string("category")  # shown and grouped by as text
    metadata = {k: data[k] for k in ("category", "difficulty", "author_email", "parser_name") if k in data}
    metadata["tags"] = tags
    return Task(
        id=task_dir.name,
        path=task_dir,
        format="tb1",
        instruction=instruction,
        tests_dir=tests_dir,
        test_script=run_tests,
        environment_dir=task_dir,
        dockerfile=dockerfile,
        solution=solution if solution.is_file() else None,
        limits=limits,
        metadata=metadata,
        verifier_env={"TEST_DIR": "/tests"},
    )


def load_task(path: str | Path) -> Task:
    task_dir = Path(path).resolve()
    if (task_dir / HARBOR_FILE).is_file():
        return load_harbor(task_dir)
    if (task_dir / TB1_FILE).is_file():
        return load_tb1(task_dir)
    raise TaskError(task_dir, HARBOR_FILE, f"no {HARBOR_FILE} (Harbor) or {TB1_FILE} (Terminal-Bench v1) here")


def find_task_dirs(path: str | Path) -> list[Path]:
    """A task dir itself, or every task dir below a folder (sorted, not descending into tasks)."""
    root = Path(path).resolve()
    if not root.exists():
        raise TaskError(root, "", "does not exist")
    if not root.is_dir():
        raise TaskError(root, "", "is a file, not a task dir (or a folder of them)")
    if (root / HARBOR_FILE).is_file() or (root / TB1_FILE).is_file():
        return [root]
    found: list[Path] = []
    for child in sorted(p for p in root.iterdir() if p.is_dir() and not p.name.startswith(".")):
        found.extend(find_task_dirs(child))
    return found


def load_tasks(paths, errors: list | None = None) -> list[Task]:
    """Loads every task under `paths`. With `errors` given, broken tasks are appended there instead of raising."""
    tasks: list[Task] = []
    seen: dict[str, Path] = {}
    for path in paths:
        dirs = find_task_dirs(path)
        if not dirs:
            err = TaskError(Path(path).resolve(), "", f"holds no task ({HARBOR_FILE} or {TB1_FILE})")
            if errors is None:
                raise err
            errors.append(err)
        for d in dirs:
            try:
                task = load_task(d)
            except TaskError as e:
                if errors is None:
                    raise
                errors.append(e)
                continue
            if task.id in seen and seen[task.id] != task.path:
                err = TaskError(d, "", f"task id {task.id!r} is also used by {seen[task.id]}")
                if errors is None:
                    raise err
                errors.append(err)
                continue
            seen[task.id] = task.path
            tasks.append(task)
    return tasks


def validate_paths(paths) -> tuple[list[Task], list[TaskError]]:
    errors: list[TaskError] = []
    tasks = load_tasks(paths, errors)
    return tasks, errors
