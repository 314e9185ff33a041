"""`reterm run`: build, start, act, verify and close, for each task; results appended as each trial ends."""

from __future__ import annotations

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from reterm.agent.episode import run_episode
from reterm.evaluation.baselines import AgentOutcome, NopAgent, OracleAgent
from reterm.sandbox import Backend, Sandbox, SandboxError
from reterm.sandbox.dockerfile import DockerfileError
from reterm.tasks import Task
from reterm.verifier import verify


class ModelAgent:
    """A language model acting through the episode loop (`reterm.agent.episode`). One policy serves every
    concurrent episode, so their generation requests are batched together."""

    name = "model"

    def __init__(self, policy, config=None):
        self.policy = policy
        self.config = config

    def run(self, sandbox: Sandbox, task: Task) -> AgentOutcome:
        return AgentOutcome(trajectory=run_episode(self.policy, sandbox, task, self.config, verify=True))


AGENTS = {"oracle": OracleAgent, "nop": NopAgent, "model": ModelAgent}


def make_agent(name: str, **kw):
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; choose one of {', '.join(AGENTS)}")
    return AGENTS[name](**kw)


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
    sample: int = 0
    turns: int | None = None
    stop_reason: str | None = None
    trajectory: object | None = None  # not written to results.jsonl; saved to trajectories.jsonl

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "trajectory"}


def run_trial(task: Task, backend: Backend, agent, sample: int = 0) -> TrialResult:
    """Build, start, act, verify, close. `agent` is an agent object or the name of one that needs no arguments."""
    agent = make_agent(agent) if isinstance(agent, str) else agent
    res = TrialResult(task.id, agent.name, backend.name, category=task.category, family=task.family, sample=sample)
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
        if outcome.trajectory is not None:  # model agents verify inside the episode (it labels the last turn)
            traj = outcome.trajectory
            res.trajectory = traj
            res.timings.update({k: v for k, v in traj.timings.items() if k in ("generate", "exec", "verify")})
            res.reward, res.rewards, res.passed, res.infra_error = (traj.reward, traj.rewards, traj.passed,
                                                                    traj.infra_error)
            res.turns, res.stop_reason = len(traj.turns), traj.stop_reason
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


def run_tasks(tasks: list[Task], backend: Backend, agent, output: Path, concurrency: int = 1,
              on_result=None, samples: int = 1) -> dict:
    """Runs every task `samples` times; `results.jsonl` (and, for model agents, `trajectories.jsonl`) grow one line
    per finished trial; `summary.json` is written last, atomically."""
    agent = make_agent(agent) if isinstance(agent, str) else agent
    output.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()
    results: list[dict] = []
    jobs = [(task, k) for k in range(samples) for task in tasks]
    with (output / "results.jsonl").open("a") as f, (output / "trajectories.jsonl").open("a") as ft, \
            ThreadPoolExecutor(max_workers=max(1, concurrency)) as pool:
        futures = [pool.submit(run_trial, task, backend, agent, k) for task, k in jobs]
        for fut in as_completed(futures):
            trial = fut.result()
            row = trial.to_dict()
            with lock:
                f.write(json.dumps(row) + "\n")
                f.flush()
                if trial.trajectory is not None:
                    ft.write(json.dumps({**trial.trajectory.to_dict(), "sample": trial.sample}) + "\n")
                    ft.flush()
                results.append(row)
            if on_result:
                on_result(row)
    if (output / "trajectories.jsonl").stat().st_size == 0:
        (output / "trajectories.jsonl").unlink()
    summary = {**summarize(results), "agent": agent.name, "backend": backend.name}
    _atomic_write(output / "summary.json", json.dumps(summary, indent=2) + "\n")
    return summary
