"""`reterm run`: build, start, act, verify and close, for each task; results appended as each trial ends."""

from __future__ import annotations

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from reterm.agents import make_agent
from reterm.sandbox import Backend, SandboxError
from reterm.sandbox.dockerfile import DockerfileError
from reterm.tasks import Task
from reterm.verifier import verify


@dataclass
class TrialResult:
    task_id: str
    agent: str
    backend: str
    reward: float | None = None
    rewards: dict = field(default_factory=dict)
    passed: bool = False
    infra_error: str | None = None
    timings: dict = field(default_factory=dict)
    category: str | None = None
    family: str | None = None

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def run_trial(task: Task, backend: Backend, agent_name: str) -> TrialResult:
    agent = make_agent(agent_name)
    res = TrialResult(task.id, agent_name, backend.name, category=task.category, family=task.family)
    t = time.monotonic()
    sandbox = None
    try:
        backend.prepare(task)
        res.timings["build"] = round(time.monotonic() - t, 3)
        t = time.monotonic()
        sandbox = backend.start(task)
        res.timings["setup"] = round(time.monotonic() - t, 3)
        t = time.monotonic()
        outcome = agent.run(sandbox, task)
        res.timings["agent"] = round(time.monotonic() - t, 3)
        if outcome.error:
            res.infra_error = f"agent: {outcome.error}"
            return res
        t = time.monotonic()
        v = verify(sandbox, task)
        res.timings["verify"] = round(time.monotonic() - t, 3)
        res.reward, res.rewards, res.passed, res.infra_error = v.reward, v.rewards, v.passed, v.infra_error
    except (SandboxError, DockerfileError, OSError) as e:
        res.infra_error = f"{e.__class__.__name__}: {e}"
    finally:
        if sandbox is not None:
            sandbox.close()
    return res


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


def summarize(results: list[dict]) -> dict:
    n = len(results)
    n_passed = sum(1 for r in results if r["passed"])
    n_infra = sum(1 for r in results if r["infra_error"])
    return {"n": n, "n_passed": n_passed, "n_infra_error": n_infra,
            "pass_rate": round(n_passed / n, 4) if n else 0.0}


def run_tasks(tasks: list[Task], backend: Backend, agent_name: str, output: Path, concurrency: int = 1,
              on_result=None) -> dict:
    """Runs every task once; `results.jsonl` grows one line per finished trial, `summary.json` is written last."""
    output.mkdir(parents=True, exist_ok=True)
    results_path = output / "results.jsonl"
    lock = threading.Lock()
    results: list[dict] = []
    with results_path.open("a") as f, ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        futures = {pool.submit(run_trial, task, backend, agent_name): task for task in tasks}
        for fut in as_completed(futures):
            row = fut.result().to_dict()
            with lock:
                f.write(json.dumps(row) + "\n")
                f.flush()
                results.append(row)
            if on_result:
                on_result(row)
    summary = {**summarize(results), "agent": agent_name, "backend": backend.name}
    _atomic_write(output / "summary.json", json.dumps(summary, indent=2) + "\n")
    return summary
