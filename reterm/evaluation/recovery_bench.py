"""The recovery benchmark: frozen failure states, and how often a policy recovers from each kind.

`build` runs a policy on tasks with `snapshot_on_error`; from every failed episode, error turns become failure states
(`reterm.failures`: chosen by `fork_points.choose`, saved by `FailureState.save_dir`): the sandbox snapshot exported
portably (`Backend.export_snapshot`), the conversation up to and including that turn's observation, the shell state
and the task's path, one folder `states/<task>-t<turn>/` each.

`evaluate` restores each state, forks K sandboxes from it, lets the policy continue the conversation in each, and
runs the task's tests. The recovery rate of a category is passed attempts / scored attempts over its states.
Attempts whose sandbox or verifier broke are infra failures: counted, never scored.

Final-turn labels (premature completion, wrong output) are assigned after the verifier ran, when no snapshot of that
moment exists any more, so they are not among the frozen states.
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import threading
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from reterm.agent.episode import run_episode
from reterm.evaluation.metrics import clustered_interval
from reterm.failures import fork_points
from reterm.failures.state import FailureState
from reterm.sandbox.resources import link_or_copy
from reterm.tasks import load_task


def build(policy, tasks, backend, out: Path, episode_config, concurrency: int = 2, on_episode=None,
          max_states_per_episode: int | None = None, samples: int = 1, max_family_share: float | None = None) -> dict:
    """Runs `samples` episodes per task and freezes the error turns of the failed ones under `out/states/`.

    With `max_states_per_episode`, only the first error turns of each episode are kept, preferring a category the
    episode has not contributed yet (a small model can repeat one error for many turns). With several samples a
    state's id names its episode (`<task>-s<sample>-t<turn>`); a policy that passes most tasks needs them to fail
    often enough for a benchmark of many states, each from an episode of its own task instance. With
    `max_family_share`, no family keeps more than that share of the states (`balance`): a benchmark dominated by one
    family says little about recovery in general."""
    states_dir = out / "states"
    states_dir.mkdir(parents=True, exist_ok=True)
    cfg = dataclasses.replace(episode_config, snapshot_on_error=True)
    lock = threading.Lock()
    manifest: list[dict] = []
    episodes = {"n": 0, "failed": 0, "passed": 0, "infra": 0}

    def one(job):
        task, sample = job
        with policy.expecting():  # the policy's batches wait for this episode while its sandbox starts
            sb = backend.start(task)
            try:
                traj = run_episode(policy, sb, task, cfg)
            finally:
                sb.close()
        states = fork_points.choose(traj, task, "first", limit=max_states_per_episode, source="collected")
        if samples > 1:
            for state in states:
                state.id = f"{task.id}-s{sample}-t{state.turn}"
        try:
            for state in states:
                state.save_dir(states_dir / state.id)
        finally:
            for state in states:
                state.release()
        rows = [{"id": s.id, "task_id": s.task_id, "category": s.category, "family": s.family, "turn": s.turn}
                for s in states]
        with lock:
            episodes["n"] += 1
            episodes["infra"] += traj.reward is None
            episodes["passed"] += traj.passed
            episodes["failed"] += traj.reward is not None and not traj.passed
            manifest.extend(rows)
        if on_episode:
            on_episode(traj, states)  # saved (exported, the live snapshots released)

    with ThreadPoolExecutor(max(1, concurrency)) as pool:
        list(pool.map(one, [(task, k) for k in range(samples) for task in tasks]))
    dropped = []
    if max_family_share:
        manifest, dropped = balance(manifest, max_family_share)
        for r in dropped:
            shutil.rmtree(states_dir / r["id"], ignore_errors=True)
    summary = _summary(episodes, manifest, len(dropped))
    (out / "manifest.json").write_text(json.dumps(summary, indent=2) + "\n")
    return summary


def _summary(episodes, rows: list[dict], dropped: int, **extra) -> dict:
    """A benchmark's manifest: its episodes, its states counted by family and category, and the states in id order."""
    return {"episodes": episodes, "states": len(rows), **extra, "dropped_for_balance": dropped,
            "by_family": dict(sorted(_count(rows, "family").items(), key=lambda kv: str(kv[0] or ""))),
            "by_category": dict(sorted(_count(rows, "category").items(), key=lambda kv: str(kv[0] or ""))),
            "states_list": sorted(rows, key=lambda r: r["id"])}


def _spread_over_tasks(rows: list[dict]) -> list[dict]:
    """One family's states (in id order) taken from its task instances in turn: each task's first, then each
    task's second, and so on."""
    by_task: dict = defaultdict(list)
    for r in rows:
        by_task[r["task_id"]].append(r)
    return [r for i in range(max(len(v) for v in by_task.values())) for v in by_task.values() if i < len(v)
            for r in [v[i]]]


def balance(rows: list[dict], max_share: float) -> tuple[list[dict], list[dict]]:
    """(kept, dropped): the fewest states dropped so that no family holds more than `max_share` of those kept. A
    family over its cap keeps its states spread over its task instances (round-robin by task, each task's in id
    order), so the cap thins a family, never erases one of its instances first."""
    if not 0 < max_share <= 1:
        raise ValueError(f"max_family_share must be in (0, 1], got {max_share}")
    by_family: dict = defaultdict(list)
    for r in sorted(rows, key=lambda r: r["id"]):
        by_family[r["family"]].append(r)
    counts = {f: len(v) for f, v in by_family.items()}
    if not counts:
        return [], []
    # the largest per-family cap c with every family at min(n, c) and c <= share of what is kept; when none exists
    # (too few families for the share), every family is cut to the smallest one's size, as even as it gets
    cap = next((c for c in range(max(counts.values()), 0, -1)
                if c <= max_share * sum(min(n, c) for n in counts.values())), min(counts.values()))
    sizes = {f: min(n, cap) for f, n in counts.items()}
    kept, dropped = [], []
    for f, fam_rows in by_family.items():
        order = _spread_over_tasks(fam_rows)
        kept += order[:sizes[f]]
        dropped += order[sizes[f]:]
    return sorted(kept, key=lambda r: r["id"]), sorted(dropped, key=lambda r: r["id"])


def thin_rows(rows: list[dict], max_states: int) -> list[dict]:
    """At most `max_states` of a benchmark's states, chosen from their ids alone (never from any outcome): families
    in turn (sorted), and within a family its task instances in turn (each task's states in id order), one state at
    a time, so every family and as many task instances as fit keep states and no family's share grows."""
    if max_states < 1:
        raise ValueError(f"max_states must be at least 1, got {max_states}")
    by_family: dict = defaultdict(list)
    for r in sorted(rows, key=lambda r: r["id"]):
        by_family[r["family"]].append(r)
    # a task without a family (tasks of one's own need not name one) sorts first, as "" would
    per_family = {f: _spread_over_tasks(fam_rows) for f, fam_rows in sorted(by_family.items(),
                                                                             key=lambda kv: str(kv[0] or ""))}
    kept: list[dict] = []
    depth = 0
    while len(kept) < max_states and any(depth < len(v) for v in per_family.values()):
        for fam_rows in per_family.values():
            if depth < len(fam_rows) and len(kept) < max_states:
                kept.append(fam_rows[depth])
        depth += 1
    return sorted(kept, key=lambda r: r["id"])


def thin(src: Path, out: Path, max_states: int) -> dict:
    """A smaller benchmark in `out` from the frozen one in `src` (`thin_rows`): its states' folders hard-linked
    (copied across file systems), a manifest like `build`'s that names its source. Written under a temporary name
    and renamed, so `out` is whole or absent. An `out` holding an earlier thinning is replaced; one holding anything
    else (a built benchmark above all), `src` itself, or a folder inside `src` or around it is refused."""
    src, out = Path(src), Path(out)
    manifest_path = src / "manifest.json"
    if not manifest_path.is_file():
        raise FileNotFoundError(f"{src} holds no recovery benchmark (no manifest.json); build one with "
                                f"`reterm recovery-bench build`")
    s_abs, o_abs = src.resolve(), out.resolve()
    if o_abs == s_abs or s_abs in o_abs.parents or o_abs in s_abs.parents:
        raise ValueError(f"--out {out} is the benchmark {src} or inside it or around it; choose a folder apart")
    if out.exists() and any(out.iterdir()):
        earlier = out / "manifest.json"
        try:
            thinned = earlier.is_file() and "thinned_from" in json.loads(earlier.read_text())
        except json.JSONDecodeError:
            thinned = False
        if not thinned:
            raise FileExistsError(f"{out} exists and holds something other than an earlier thinning; choose another "
                                  f"--out")
    try:
        source = json.loads(manifest_path.read_text())
    except json.JSONDecodeError as e:
        raise ValueError(f"{manifest_path}: not JSON ({e})") from e
    rows = source.get("states_list")
    if not isinstance(rows, list) or not all(isinstance(r, dict) and {"id", "family", "task_id"} <= set(r)
                                             for r in rows):
        raise ValueError(f"{manifest_path}: no states_list of states with id, family and task_id")
    kept = thin_rows(rows, max_states)
    for r in kept:  # before anything is made
        if not (src / "states" / r["id"]).is_dir():
            raise FileNotFoundError(f"{manifest_path} lists state {r['id']} but {src / 'states' / r['id']} is missing")
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.parent / f".{out.name}.thinning"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        (tmp / "states").mkdir(parents=True)
        for r in kept:
            state_dir = src / "states" / r["id"]
            if not state_dir.is_dir():
                raise FileNotFoundError(f"{manifest_path} lists state {r['id']} but {state_dir} is missing")
            shutil.copytree(state_dir, tmp / "states" / r["id"], copy_function=link_or_copy)
        summary = _summary(source.get("episodes"), kept, source.get("dropped_for_balance", 0),
                           thinned_from={"bench": str(src), "states": len(rows), "max_states": max_states})
        (tmp / "manifest.json").write_text(json.dumps(summary, indent=2) + "\n")
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    old = out.parent / f".{out.name}.replaced"
    if out.exists():
        shutil.rmtree(old, ignore_errors=True)
        out.rename(old)  # the earlier thinning aside, the new one in, then the earlier one gone
    tmp.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    return summary


def _count(rows, key) -> dict:
    out: dict = defaultdict(int)
    for r in rows:
        out[r[key]] += 1
    return out


def load_states(bench_dir: Path) -> list[FailureState]:
    states_dir = Path(bench_dir) / "states"
    if not states_dir.is_dir():
        raise FileNotFoundError(f"{bench_dir} holds no recovery benchmark (no states/ folder); build one with "
                                f"`reterm recovery-bench build`")
    return [FailureState.load_dir(d) for d in sorted(states_dir.iterdir())
            if d.is_dir() and not d.name.startswith(".")]


def evaluate(policy, bench_dir: Path, backend, k: int, episode_config, concurrency: int = 2,
             on_attempt=None, previous: list[dict] | None = None, states: list | None = None) -> dict:
    """K continuations from every frozen state; recovery rate per error category. `previous`: attempt rows of an
    evaluation of the same policy that was interrupted; a state with all its k attempts there is not attempted again
    (a state with fewer is, all k). `states`: the benchmark's states when the caller has loaded them already."""
    states = load_states(bench_dir) if states is None else states
    attempts: list[dict] = []
    if previous:
        ids = {s.id for s in states}
        earlier = {s: rows for s, rows in finished_states(previous, k).items() if s in ids}
        attempts = [row for rows in earlier.values() for row in rows]
        states = [s for s in states if s.id not in earlier]
    lock = threading.Lock()

    def one_state(state: FailureState):
        task = load_task(state.task_path)
        snap = state.restore(backend)
        try:
            forks = snap.fork(k)
        finally:
            snap.release()

        def attempt(i_box):
            i, box = i_box
            try:
                traj = run_episode(policy, box, task, episode_config, history=state.history)
                row = {"state": state.id, "category": state.category, "family": state.family,
                       "task_id": state.task_id, "attempt": i,
                       "reward": traj.reward, "passed": traj.passed, "infra_error": traj.infra_error,
                       "turns": len(traj.turns), "stop_reason": traj.stop_reason,
                       "commands": [c for t in traj.turns for c in t.commands]}  # what the attempt did, to read
            finally:
                box.close()
            with lock:
                attempts.append(row)
            if on_attempt:
                on_attempt(row)

        with ThreadPoolExecutor(k) as pool:
            list(pool.map(attempt, enumerate(forks)))

    with ThreadPoolExecutor(max(1, concurrency)) as pool:
        list(pool.map(one_state, states))
    return recovery_report(attempts, k)


def finished_states(rows: list[dict], k: int) -> dict[str, list[dict]]:
    """State id -> its k attempt rows, for the states whose attempts 0..k-1 all appear in `rows` (a later row of the
    same attempt replaces an earlier one)."""
    by_state: dict[str, dict[int, dict]] = defaultdict(dict)
    for row in rows:
        by_state[row["state"]][row["attempt"]] = row
    return {s: [got[i] for i in range(k)] for s, got in by_state.items() if all(i in got for i in range(k))}


def _rate(per_state: dict[str, list[int]]) -> dict:
    """A recovery rate over scored attempts and its 95% interval, from [recovered, scored] per state: attempts from
    one state are not independent, so the interval counts them by `clustered_interval`."""
    recovered = sum(c for c, _ in per_state.values())
    scored = sum(n for _, n in per_state.values())
    return {"recovery_rate": round(recovered / scored, 4) if scored else None,
            "ci95": clustered_interval([tuple(v) for v in per_state.values()])}


def recovery_report(attempts: list[dict], k: int) -> dict:
    by_cat: dict[str, dict] = {}
    for a in attempts:
        c = by_cat.setdefault(a["category"], {"states": {}, "attempts": 0, "recovered": 0, "infra": 0})
        counts = c["states"].setdefault(a["state"], [0, 0])
        c["attempts"] += 1
        if a["infra_error"]:
            c["infra"] += 1
            continue
        counts[1] += 1
        c["recovered"] += bool(a["passed"])
        counts[0] += bool(a["passed"])
    table = {}
    for cat, c in sorted(by_cat.items()):
        table[cat] = {"states": len(c["states"]), "attempts": c["attempts"], "recovered": c["recovered"],
                      "infra_errors": c["infra"], **_rate(c["states"])}
    every_state = {s: v for c in by_cat.values() for s, v in c["states"].items()}
    return {"k": k, "by_category": table,
            "overall": {"states": len({a["state"] for a in attempts}), "attempts": len(attempts),
                        "recovered": sum(c["recovered"] for c in by_cat.values()), **_rate(every_state)},
            "attempts": sorted(attempts, key=lambda a: (a["state"], a["attempt"]))}


def plot(report: dict, path: Path, title: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cats = list(report["by_category"])
    rates = [report["by_category"][c]["recovery_rate"] or 0.0 for c in cats]
    fig, ax = plt.subplots(figsize=(max(5, 1.1 * len(cats) + 2), 4))
    bars = ax.bar(cats, rates, color="#4c72b0")
    for b, c in zip(bars, cats):
        row = report["by_category"][c]
        ax.annotate(f"{row['recovered']}/{row['attempts'] - row['infra_errors']}", (b.get_x() + b.get_width() / 2,
                    b.get_height()), ha="center", va="bottom", fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_ylabel("recovery rate")
    ax.set_title(title)
    plt.setp(ax.get_xticklabels(), rotation=30, ha="right")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
