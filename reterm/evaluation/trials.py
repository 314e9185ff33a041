"""`reterm run`: build, start, act, verify and close, for each task; results appended as each trial ends."""

from __future__ import annotations

import json
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from pathlib import Path

from reterm import stopping
from reterm.agent.episode import run_episode
from reterm.evaluation.baselines import SHORTCUTS, AgentOutcome, NopAgent, OracleAgent, ShortcutAgent
from reterm.sandbox import Backend, Sandbox, SandboxError
from reterm.sandbox.base import close_all
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

    def trial(self):
        """While the trial's sandbox starts, the policy's batches wait for its first request (`Policy.expecting`)."""
        return self.policy.expecting()


AGENTS = {"oracle": OracleAgent, "nop": NopAgent, "model": ModelAgent}


def make_agent(name: str, **kw):
    if name.startswith("shortcut:"):
        return ShortcutAgent(name.split(":", 1)[1])
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; choose one of {', '.join(AGENTS)} or "
                         f"{', '.join('shortcut:' + s for s in SHORTCUTS)}")
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
    steps: list | None = None  # multi-step tasks: [{name, reward, infra_error}] in order
    logs: str | None = None  # the trial's dir: agent/, verifier/, artifacts/, result.json
    trajectory: object | None = None  # not written to results.jsonl; saved to trajectories.jsonl

    def to_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k != "trajectory"}


def _act_and_verify(sandbox, task: Task, agent, logs: Path | None) -> dict:
    """One agent phase and its verification: the TrialResult fields it sets, timings included."""
    out: dict = {"timings": {}}
    t = time.monotonic()
    outcome = agent.run(sandbox, task)
    out["timings"]["agent"] = round(time.monotonic() - t, 3)
    if logs is not None:
        sandbox.download_dir("/logs/agent", logs / "agent")
        if outcome.steps:
            (logs / "agent" / f"{agent.name}.txt").write_text("".join(r.output for r in outcome.steps))
    if outcome.error:
        return {**out, "infra_error": f"agent: {outcome.error}"}
    if outcome.trajectory is not None:  # model agents verify inside the episode (it labels the last turn)
        traj = outcome.trajectory
        if logs is not None:
            (logs / "agent" / "trajectory.json").write_text(json.dumps(traj.to_atif(), indent=1))
            sandbox.download_dir("/logs/verifier", logs / "verifier")
        out["timings"].update({k: v for k, v in traj.timings.items() if k in ("generate", "exec", "verify")})
        return {**out, "reward": traj.reward, "rewards": traj.rewards, "passed": traj.passed,
                "infra_error": traj.infra_error, "turns": len(traj.turns), "stop_reason": traj.stop_reason,
                "trajectory": traj}
    t = time.monotonic()
    v = verify(sandbox, task, logs_dir=logs / "verifier" if logs is not None else None)
    out["timings"]["verify"] = round(time.monotonic() - t, 3)
    if logs is not None:
        sandbox.download_dir("/logs/artifacts", logs / "artifacts")
    return {**out, "reward": v.reward, "rewards": v.rewards, "passed": v.passed, "infra_error": v.infra_error}


def _run_steps(sandbox, task: Task, agent, logs: Path | None) -> dict:
    """Harbor's multi-step trial: each step's agent phase and tests in the same sandbox, in order; a step below
    its `min_reward` (or without a reward) ends the trial. Trial reward: the mean over all steps (steps not reached
    count 0) or the final step's."""
    steps: list[dict] = []
    timings: dict = {}
    for step in task.steps:
        r = _act_and_verify(sandbox, task.for_step(step), agent, logs / "steps" / step.name if logs else None)
        for k, v in r.pop("timings").items():
            timings[k] = round(timings.get(k, 0.0) + v, 3)
        r.pop("trajectory", None)
        steps.append({"name": step.name, "reward": r.get("reward"), "infra_error": r.get("infra_error")})
        if r.get("infra_error"):
            return {"timings": timings, "steps": steps, "infra_error": f"step {step.name}: {r['infra_error']}"}
        if step.min_reward is not None and r["reward"] < step.min_reward:
            break
    rewards = [s["reward"] or 0.0 for s in steps] + [0.0] * (len(task.steps) - len(steps))
    reward = rewards[-1] if task.multi_step_reward_strategy == "final" else sum(rewards) / len(rewards)
    return {"timings": timings, "steps": steps, "reward": reward, "passed": reward >= 1.0,
            "rewards": {"reward": reward, **{f"step:{s['name']}": s["reward"] for s in steps}}}


def run_trial(task: Task, backend: Backend, agent, sample: int = 0, logs: Path | None = None) -> TrialResult:
    """Build, start, act, verify, close. `agent` is an agent object or the name of one that needs no arguments.
    With `logs`, the trial's files are kept there as Harbor lays them out: agent/, verifier/, artifacts/
    (steps/<name>/... for multi-step tasks)."""
    agent = make_agent(agent) if isinstance(agent, str) else agent
    res = TrialResult(task.id, agent.name, backend.name, category=task.category, family=task.family, sample=sample)
    t = time.monotonic()
    sandbox = None
    with agent.trial():  # a model agent's batches wait for this trial while its sandbox starts
        try:
            backend.prepare(task)
            res.timings["build"] = round(time.monotonic() - t, 3)
            t = time.monotonic()
            sandbox = backend.start(task)
            res.timings["setup"] = round(time.monotonic() - t, 3)
            fields = (_run_steps if task.steps else _act_and_verify)(sandbox, task, agent, logs)
            res.timings.update(fields.pop("timings"))
            for k, v in fields.items():
                setattr(res, k, v)
        except (SandboxError, DockerfileError, OSError) as e:
            res.infra_error = f"{e.__class__.__name__}: {e}"
        finally:
            if sandbox is not None:
                sandbox.close()
    if logs is not None:
        res.logs = str(logs)
        logs.mkdir(parents=True, exist_ok=True)
        atomic_write(logs / "result.json", json.dumps(res.to_dict(), indent=2) + "\n")
    return res


def atomic_write(path: Path, text: str) -> None:
    """`text` into `path` through a temporary file beside it: a reader never sees half of it."""
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


def summarize(results: list[dict]) -> dict:
    """pass_rate is over scored trials only; infra errors (no reward) are counted beside it, never as fails."""
    n = len(results)
    n_passed = sum(1 for r in results if r["passed"])
    n_infra = sum(1 for r in results if r["infra_error"])
    n_scored = n - n_infra
    return {"n": n, "n_scored": n_scored, "n_passed": n_passed, "n_infra_error": n_infra,
            "pass_rate": round(n_passed / n_scored, 4) if n_scored else None}


def finished_trials(path: Path) -> list[dict]:
    """The rows of a results.jsonl that an interrupted run left, one per (task, sample), a torn last line skipped."""
    return list({(row["task_id"], row.get("sample", 0)): row for row in jsonl_rows(path)}.values())


def jsonl_rows(path: Path) -> list[dict]:
    """The whole lines of a JSONL file that a stop may have cut (a torn line left out); [] if it is absent."""
    rows = []
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError:
                pass  # the line being written when the run stopped
    return rows


def run_tasks(tasks: list[Task], backend: Backend, agent, output: Path, concurrency: int = 1,
              on_result=None, samples: int = 1, resume: bool = False) -> dict:
    """Runs every task `samples` times; `results.jsonl` (and, for model agents, `trajectories.jsonl`) grow one line
    per finished trial; `summary.json` is written last, atomically. With `resume`, the trials already in `output`'s
    results.jsonl (an interrupted run of the same tasks and agent) count as run and are not run again."""
    agent = make_agent(agent) if isinstance(agent, str) else agent
    output.mkdir(parents=True, exist_ok=True)
    lock = threading.Lock()
    results: list[dict] = []
    if resume:  # the finished trials kept, each file rewritten without a line torn by the stop
        results = finished_trials(output / "results.jsonl")
        atomic_write(output / "results.jsonl", "".join(json.dumps(r) + "\n" for r in results))
        if (output / "trajectories.jsonl").exists():  # one a kept trial, the last written
            kept = {(r["task_id"], r.get("sample", 0)) for r in results}
            trajs = {(t.get("task_id"), t.get("sample", 0)): t for t in jsonl_rows(output / "trajectories.jsonl")}
            atomic_write(output / "trajectories.jsonl", "".join(json.dumps(t) + "\n" for key, t in trajs.items()
                                                                if key in kept))
    ran = {(r["task_id"], r.get("sample", 0)) for r in results}
    jobs = [(task, k) for k in range(samples) for task in tasks if (task.id, k) not in ran]
    pool = ThreadPoolExecutor(max_workers=max(1, concurrency))
    stopped = True
    try:
        with (output / "results.jsonl").open("a") as f, (output / "trajectories.jsonl").open("a") as ft:
            futures = [pool.submit(run_trial, task, backend, agent, k, output / "trials" / f"{task.id}__{k}")
                       for task, k in jobs]
            for fut in as_completed(futures):
                trial = fut.result()
                if stopping.STOP.is_set():  # told to stop: a trial ending now was cut short, not a result
                    break
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
            else:
                stopped = False
    finally:
        # Told to stop (or failing): trials not started are dropped, running ones end with their sandboxes, and
        # the summary says how far the run got; results.jsonl already holds every finished trial.
        pool.shutdown(wait=not stopped, cancel_futures=True)
        if stopped:
            if stopping.STOP.is_set():
                close_all()
            atomic_write(output / "summary.json", json.dumps(
                {**summarize(results), "agent": agent.name, "backend": backend.name, "interrupted": True,
                 "planned": len(tasks) * samples}, indent=2) + "\n")
    if stopped:  # the loop left early, told to stop (in a worker thread: the main thread has its own exit)
        raise stopping.stopped()
    if (output / "trajectories.jsonl").stat().st_size == 0:
        (output / "trajectories.jsonl").unlink()
    summary = {**summarize(results), "agent": agent.name, "backend": backend.name}
    atomic_write(output / "summary.json", json.dumps(summary, indent=2) + "\n")
    return summary
