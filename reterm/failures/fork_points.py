"""Fork points: which failure states of an episode to continue from, best first.

An episode run with `snapshot_on_error` holds a snapshot after every error turn (`Trajectory.snapshots`); the
trainer's scouts also snapshot the end state before the verifier runs (`final_snapshot`). `choose` turns those into
`FailureState`s by a strategy:

- `first` / `last`: error turns in order / in reverse order; `random`: shuffled by `rng`.
- `final`: the end state first when the model said it was done and the tests failed, then the errors from the last.
- every strategy falls back on the end state after its error turns (e.g. a wrong output has no error turn).
- `limit`: at most that many, preferring categories not taken yet (a small model can repeat one error for many
  turns), kept in the strategy's order.

`choose` takes over every snapshot it is given: the states it returns hold theirs (released with the state), the
others are released before it returns. A passing episode, or one whose verifier broke, gives no state.
"""

from __future__ import annotations

import random

from reterm import failures
from reterm.agent.trajectory import Trajectory
from reterm.failures.state import EVIDENCE_CHARS, FailureState

STRATEGIES = ("first", "last", "random", "final")
TESTS_FAILED_NOTE = "The task's tests ran and did not pass. The task is not complete: keep working on it."


def history_at(traj: Trajectory, turn: int) -> list[dict]:
    """The conversation of an episode from the task start up to and including turn `turn`'s observation: system,
    instruction, then one (assistant, observation) pair per turn."""
    return [dict(m) for m in traj.messages[: 2 + 2 * (turn + 1)]]


def choose(traj: Trajectory, task, strategy: str = "first", rng: random.Random | None = None,
           final_snapshot=None, limit: int | None = None, source: str = "scout") -> list[FailureState]:
    """The failure states to fork from, best first (see the module docstring); takes over every snapshot. `source`
    says what ran the episode: a trainer's `scout`, or a policy whose states are `collected`."""
    if strategy not in STRATEGIES:
        raise ValueError(f"fork point strategy must be one of {', '.join(STRATEGIES)}; got {strategy!r}")
    snaps = dict(traj.snapshots)
    try:
        if traj.reward is None or traj.passed:
            return []
        states = [_error_state(traj, task, t, snaps.pop(t.snapshot_id), source) for t in traj.turns
                  if t.snapshot_id in snaps and t.observation]
        final = None
        if final_snapshot is not None:
            final, final_snapshot = _final_state(traj, task, final_snapshot, source), None
        if strategy == "last":
            states.reverse()
        elif strategy == "random":
            (rng or random.Random(0)).shuffle(states)
        elif strategy == "final":
            states.reverse()
            if final is not None and traj.turns and traj.turns[-1].said_done:
                states.insert(0, final)
                final = None
        if final is not None:
            states.append(final)
        if limit is not None:
            states, dropped = _distinct_first(states, limit)
            for s in dropped:
                s.release()
        return states
    finally:
        for s in snaps.values():
            s.release()
        if final_snapshot is not None:
            final_snapshot.release()


def _error_state(traj: Trajectory, task, turn, snapshot, source: str) -> FailureState:
    return FailureState(id=f"{traj.task_id}-t{turn.index}", task_id=traj.task_id, task_path=_path(task),
                        history=history_at(traj, turn.index), turn=turn.index, category=turn.label,
                        evidence=turn.observation[-EVIDENCE_CHARS:], source=source, family=traj.family,
                        task_category=traj.category, format=traj.format, model=traj.model, snapshot=snapshot)


def _final_state(traj: Trajectory, task, snapshot, source: str) -> FailureState:
    """The end state: the whole conversation, and a user turn saying the tests failed."""
    history = [dict(m) for m in traj.messages]
    if history[-1]["role"] == "user":
        history[-1] = {"role": "user", "content": history[-1]["content"] + "\n\n" + TESTS_FAILED_NOTE}
    else:
        history.append({"role": "user", "content": TESTS_FAILED_NOTE})
    label = traj.turns[-1].label if traj.turns else failures.WRONG_OUTPUT
    return FailureState(id=f"{traj.task_id}-final", task_id=traj.task_id, task_path=_path(task), history=history,
                        turn=len(traj.turns) - 1, category=label, evidence=TESTS_FAILED_NOTE, source=source,
                        family=traj.family, task_category=traj.category, format=traj.format, model=traj.model,
                        snapshot=snapshot)


def _distinct_first(states: list[FailureState], limit: int) -> tuple[list[FailureState], list[FailureState]]:
    firsts, seen = [], set()
    for s in states:
        if s.category not in seen:
            seen.add(s.category)
            firsts.append(s)
    kept = (firsts + [s for s in states if all(s is not f for f in firsts)])[:limit]
    order = {id(s): n for n, s in enumerate(states)}
    return sorted(kept, key=lambda s: order[id(s)]), [s for s in states if all(s is not k for k in kept)]


def _path(task) -> str | None:
    return str(task.path) if task is not None and getattr(task, "path", None) is not None else None
