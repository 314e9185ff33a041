"""The ReTerm-GRPO rollout: slots, scouts, fork points, forks, refills (the algorithm is in training/grpo.py's
docstring). It knows nothing of TRL: the trainer hands it the batch's task ids and gets back one `Group` per slot.

Records: a `Slot` is one GRPO group being filled (its task, how often it was redone, the failure states its last
scout left unused, the group once made); a `Plan` is what a slot runs in a round (G attempts forked from a state, or
from the task start); an `EpisodeJob` is one episode to run and `EpisodeResult` what came back; `Attempt`s make a
`Group`; a `Scouted` is a scout run one step ahead, for a slot of the next batch. `RolloutStats` and `Timings` are
what the trainer logs.

Scouting ahead (`run(..., ahead=...)`): the next batch's scouts run in this rollout's first round of attempts, in the
same lockstep batches, instead of in a round of their own at the start of the next rollout; their failure states
(`self.ahead`) are handed to the next rollout (`run(..., scouted=...)`), whose slots fork from them at once.

Lifecycle: every sandbox an episode starts or is handed is closed by `_episode`; every snapshot is held by exactly
one `FailureState` (released when its attempts ran, or at the end of `run` when unused; those of the scouts run
ahead go to the caller in `self.ahead`, and to the next `run` with `scouted`).
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from reterm import failures
from reterm.agent.episode import EpisodeConfig, run_episode, score_episode
from reterm.agent.trajectory import Trajectory
from reterm.failures import fork_points
from reterm.failures.state import FailureState
from reterm.sandbox import Backend, Sandbox, Snapshot
from reterm.tasks import Task
from reterm.training.lockstep import GenerationFailed, LockstepGenerator

if TYPE_CHECKING:
    from reterm.training.config import ReTermGRPOConfig

_KILL = re.compile(r"(^|[;&|(\s])(kill|pkill|killall)\s")
_LOOK = re.compile(r"(^|[;&|(\s])(ps|pgrep|top|htop|pstree|lsof|fuser|pidof)(\s|$)|/proc/")


@dataclass
class Attempt:
    prompt_ids: list[int]
    completion_ids: list[int]
    env_mask: list[int]
    logprobs: list[float]
    reward: float | None  # None: infra failure (masked)
    passed: bool = False
    declared_done: bool = False  # the episode ended by the policy saying the task is done, not by the turn limit


@dataclass
class Group:
    task_id: str
    category: str  # error category of the fork state, or "start"
    attempts: list[Attempt]
    tries: int = 0

    @property
    def flat(self) -> bool:
        valid = [a.reward for a in self.attempts if a.reward is not None]
        return len(valid) < 2 or len(set(valid)) == 1


@dataclass
class Slot:
    index: int
    task_id: str
    tries: int = 0
    states: list[FailureState] = field(default_factory=list)  # unused failure states of its last scout, best first
    group: Group | None = None
    scouted_passed: bool | None = None  # its first scout ran ahead (in the previous rollout): whether it passed


@dataclass
class Plan:
    slot: Slot
    state: FailureState | None  # None: the G attempts start at the task start


@dataclass
class EpisodeJob:
    key: tuple  # ("scout", slot, tries), ("attempt", slot, tries, g), ("ahead", slot): also the lockstep batch order
    task: Task
    sandbox: Sandbox | None = None  # a fork to continue in, or None: start a fresh sandbox
    history: list[dict] | None = None

    @property
    def scout(self) -> bool:
        return self.key[0] != "attempt"


@dataclass
class Scouted:
    """A scout run one rollout ahead for a slot of the next batch: its failure states (best first) and whether it
    passed. Whoever holds it releases it."""

    task_id: str
    states: list[FailureState]
    passed: bool

    def release(self) -> None:
        states, self.states = self.states, []
        for s in states:
            s.release()


@dataclass
class EpisodeResult:
    trajectory: Trajectory
    final_snapshot: Snapshot | None = None  # scouts: the end state, before the verifier ran

    def release(self) -> None:
        """Gives back the snapshots nobody took over (a phase that failed)."""
        for snap in self.trajectory.snapshots.values():
            snap.release()
        self.trajectory.snapshots = {}
        if self.final_snapshot is not None:
            self.final_snapshot.release()
            self.final_snapshot = None


@dataclass
class RolloutStats:
    refills: int = 0
    scouts: int = 0  # run in this rollout, those for the next one included
    scouts_passed: int = 0
    scouts_ahead: int = 0  # of them, run for the next rollout
    scouted: int = 0  # slots whose first scout ran in the previous rollout
    infra: int = 0


class RolloutProgress:
    """What a rollout has done so far, for the line a person watches during a step: episodes planned and finished
    (scouts, attempts), how many passed, groups made and how many have a learning signal (mixed rewards), refills.
    `on_change(self)` is called after every change, from the episode threads (under a lock)."""

    def __init__(self, slots: int = 0, on_change=None):
        self.slots = slots
        self.on_change = on_change
        self.planned = self.finished = 0
        self.scouts = self.scouts_passed = self.attempts = self.attempts_passed = 0
        self.groups = self.mixed = self.refills = 0
        self._lock = threading.Lock()

    def update(self, **add: int) -> None:
        with self._lock:
            for k, v in add.items():
                setattr(self, k, getattr(self, k) + v)
            if self.on_change is not None:
                self.on_change(self)


class Timings:
    """Seconds per kind of work (generate, episodes, snapshot, fork), added to from the episode threads."""

    def __init__(self):
        self.seconds: dict[str, float] = defaultdict(float)
        self._lock = threading.Lock()

    @contextmanager
    def measure(self, kind: str):
        t0 = time.monotonic()
        try:
            yield
        finally:
            with self._lock:
                self.seconds[kind] += time.monotonic() - t0

    def timed(self, kind: str, fn):
        def run(*a, **kw):
            with self.measure(kind):
                return fn(*a, **kw)
        return run


class Rollout:
    """One batch's groups. `seed_parts` (seed, global step, process) make every random choice reproducible."""

    def __init__(self, args: ReTermGRPOConfig, tasks: dict[str, Task], backend: Backend, gen: LockstepGenerator,
                 eos_token_id: int, seed_parts: tuple, timings: Timings | None = None,
                 progress: RolloutProgress | None = None):
        self.args = args
        self.tasks = tasks
        self.task_ids = sorted(tasks)
        self.backend = backend
        self.gen = gen
        self.eos = eos_token_id
        self.seed_parts = seed_parts
        self.timings = timings or Timings()
        self.stats = RolloutStats()
        self.progress = progress or RolloutProgress()
        self.ahead: list[Scouted] = []  # the next rollout's scouts, once `run` returns: the caller owns them

    def run(self, task_ids: list[str], G: int, scouted: list[Scouted | None] | None = None,
            ahead: list[str] | None = None) -> list[Group]:
        """One group of G attempts per slot (`task_ids[i]` is slot i's task), refilled while flat. `scouted[i]`:
        slot i's scout, run by the previous rollout (taken over: this rollout releases it); `ahead`: the next
        rollout's slot tasks, scouted during this rollout's first round of attempts (results in `self.ahead`)."""
        slots = [Slot(i, t) for i, t in enumerate(task_ids)]
        for s, sc in zip(slots, scouted or []):  # checked before any is taken over: the caller still holds them all
            if sc is not None and sc.task_id != s.task_id:
                raise ValueError(f"slot {s.index}: scouted ahead for {sc.task_id!r}, but the batch has {s.task_id!r}")
        for s, sc in zip(slots, scouted or []):
            if sc is None:
                continue
            s.states, sc.states, s.scouted_passed = sc.states, [], sc.passed
            self.stats.scouted += 1
        ahead_slots = [Slot(i, t) for i, t in enumerate(ahead or [])]
        todo = list(slots)
        try:
            first = True
            while todo:
                self._run_attempts(self._plan(todo), G, ahead_slots if first else [])
                first = False
                todo = self._refill(todo, G)
        except BaseException:
            for sc in self.ahead:
                sc.release()
            self.ahead = []
            raise
        finally:
            for s in slots:
                for state in s.states:
                    state.release()
        return [s.group for s in slots]

    def rng(self, *parts) -> random.Random:
        return random.Random(":".join(str(p) for p in (*self.seed_parts, *parts)))

    # -- the phases ------------------------------------------------------------------------------------------------
    def _plan(self, todo: list[Slot]) -> list[Plan]:
        """Scouts for the slots with no unused failure state left; then each slot's plan for this round (a slot
        whose scout passed with on_success: skip, or left nothing to fork from, sits the round out)."""
        if self.args.fork_from == "start":
            return [Plan(s, None) for s in todo]
        scouting = [s for s in todo if not s.states and s.scouted_passed is None]
        passed = self._scout(scouting)
        for s in todo:  # scouted by the previous rollout: only the first round's plan uses it
            if s.scouted_passed is not None:
                passed[s.index], s.scouted_passed = s.scouted_passed, None
        plans = []
        for s in todo:
            if s.states:
                plans.append(Plan(s, s.states.pop(0)))
            elif passed.get(s.index) and self.args.on_success == "start":
                plans.append(Plan(s, None))
        return plans

    def _scout(self, slots: list[Slot]) -> dict[int, bool]:
        """One scout episode per slot; its failure states become the slot's. Returns whether each scout passed."""
        results = self._run_phase([EpisodeJob(("scout", s.index, s.tries), self.tasks[s.task_id]) for s in slots])
        passed = {}
        taken = self._take_scouts(slots, results, lambda s: ("scout", s.index, s.tries), "fork")
        for s, (states, ok) in zip(slots, taken):
            s.states, passed[s.index] = states, ok
        return passed

    def _take_scouts(self, slots: list[Slot], results: dict, key,
                     rng_name: str) -> list[tuple[list[FailureState], bool]]:
        """Each slot's scout (`results[key(slot)]`): its failure states (taking over its snapshots) and whether it
        passed. If one cannot be taken, every snapshot of the others is released before the error goes on."""
        taken = []
        for n, s in enumerate(slots):
            try:
                res = results[key(s)]
                traj = res.trajectory
                states = fork_points.choose(traj, self.tasks[s.task_id], self.args.fork_point,
                                            self.rng(rng_name, *key(s)[1:]), final_snapshot=res.final_snapshot)
            except BaseException:
                for states, _ in taken:
                    for st in states:
                        st.release()
                for later in slots[n + 1:]:
                    results[key(later)].release()
                raise
            self.stats.scouts += 1
            self.stats.infra += traj.reward is None
            self.stats.scouts_passed += traj.passed
            taken.append((states, traj.passed))
        return taken

    def _run_attempts(self, plans: list[Plan], G: int, ahead: list[Slot] = ()) -> None:
        """G attempts per plan, forked from its state (or from the task start); each plan's slot gets its group.
        The `ahead` slots' scouts (the next rollout's) run in the same phase; their results go to `self.ahead`."""
        jobs: list[EpisodeJob] = []
        try:
            for p in plans:
                task = self.tasks[p.slot.task_id]
                forks = self._fork(p.state.snapshot, G) if p.state else [None] * G
                history = p.state.history if p.state else None
                jobs += [EpisodeJob(("attempt", p.slot.index, p.slot.tries, g), task, forks[g], history)
                         for g in range(G)]
            # the next step's scouts last: with sandbox_concurrency below the total they, not attempts, wait
            results = self._run_phase(jobs + [EpisodeJob(("ahead", s.index), self.tasks[s.task_id]) for s in ahead])
        except BaseException:
            for j in jobs:  # forks of a plan whose phase never ran (closing twice is harmless)
                if j.sandbox is not None:
                    j.sandbox.close()
            raise
        finally:
            for p in plans:
                if p.state is not None:
                    p.state.release()
        for s, (states, ok) in zip(ahead, self._take_scouts(ahead, results, lambda s: ("ahead", s.index), "ahead")):
            self.ahead.append(Scouted(s.task_id, states, ok))
            self.stats.scouts_ahead += 1
        for p in plans:
            s = p.slot
            atts = [self._attempt(results[("attempt", s.index, s.tries, g)].trajectory) for g in range(G)]
            self.stats.infra += sum(x.reward is None for x in atts)
            s.group = Group(s.task_id, p.state.category if p.state else "start", atts, s.tries)
            self.progress.update(groups=1, mixed=int(not s.group.flat))

    def _refill(self, todo: list[Slot], G: int) -> list[Slot]:
        """The slots to redo: flat groups and slots that sat out, while they have tries left and the step's token
        budget is not spent (from their next failure state, or with another task when none is left); a slot out of
        tries with no group gets a masked placeholder."""
        again = []
        budget = self.args.token_budget_per_step
        spent = budget is not None and self.gen.generated_tokens >= budget
        for s in todo:
            if s.group is not None and not s.group.flat:
                continue
            if s.tries >= self.args.refill_tries or spent:
                if s.group is None:
                    s.group = self._placeholder(s.task_id, G)
                continue
            s.tries += 1
            self.stats.refills += 1
            self.progress.update(refills=1)
            if not s.states:
                s.task_id = self.rng("refill", s.index, s.tries).choice(self.task_ids)
            s.group = None
            again.append(s)
        return again

    # -- episodes --------------------------------------------------------------------------------------------------
    def _episode_config(self, turns: int, snapshot_on_error: bool = False) -> EpisodeConfig:
        a = self.args
        return EpisodeConfig(format=a.agent_format, max_turns=turns, observation_tokens=a.observation_tokens,
                             command_timeout_s=a.command_timeout_s, max_context_tokens=a.max_context_tokens,
                             snapshot_on_error=snapshot_on_error)

    def _run_phase(self, jobs: list[EpisodeJob]) -> dict:
        """Runs episodes concurrently (at most sandbox_concurrency at once, in a fixed order): scouts (their turn
        limit, a snapshot after each error turn) and attempts (the recovery turn limit). Closes every sandbox; if the
        phase fails, the snapshots of the episodes that finished are released."""
        a = self.args
        scout_cfg = self._episode_config(a.max_scout_turns, snapshot_on_error=True)
        attempt_cfg = self._episode_config(a.max_recovery_turns)
        results = {}
        limit = a.sandbox_concurrency
        self.progress.update(planned=len(jobs))
        try:
            for start in range(0, len(jobs), limit):
                chunk = jobs[start:start + limit]
                with self.gen.episodes([j.key for j in chunk]), ThreadPoolExecutor(max_workers=len(chunk) or 1) as pool:
                    futures = {j.key: pool.submit(self._episode, j, scout_cfg if j.scout else attempt_cfg)
                               for j in chunk}
                failed = None
                for k, f in futures.items():
                    try:
                        results[k] = f.result()
                    except BaseException as e:  # keep collecting: the others' snapshots must be released
                        failed = failed or e
                if failed is not None:
                    raise failed
        except BaseException:
            for res in results.values():
                res.release()
            raise
        return results

    def _episode(self, job: EpisodeJob, cfg: EpisodeConfig) -> EpisodeResult:
        scout = job.scout
        policy = self.gen.policy(job.key)
        sandbox, final_snap = job.sandbox, None
        with self.timings.measure("episodes"):
            try:
                if sandbox is None:
                    sandbox = self.backend.start(job.task)
                traj = run_episode(policy, sandbox, job.task, cfg, verify=False, history=job.history)
                self.gen.finish(job.key)
                if traj.infra_error is None:
                    if scout:  # the end state, before the verifier touches it: a fork point with no error turn
                        with self.timings.measure("snapshot"):
                            final_snap = sandbox.snapshot()
                    score_episode(traj, sandbox, job.task)
            except GenerationFailed:  # the generator is broken, not this sandbox: stop the rollout with the error
                raise
            except Exception as e:  # a sandbox that cannot start or broke: an infra failure, never a 0 reward
                traj = Trajectory(task_id=job.task.id, model=policy.model_name, format=cfg.format)
                traj.infra_error = f"{type(e).__name__}: {e}"
            finally:
                self.gen.finish(job.key)
                if sandbox is not None:
                    sandbox.close()
        if traj.infra_error and final_snap is not None:
            final_snap.release()
            final_snap = None
        ok = int(bool(traj.passed))
        self.progress.update(finished=1, **({"scouts": 1, "scouts_passed": ok} if scout else
                                            {"attempts": 1, "attempts_passed": ok}))
        return EpisodeResult(traj, final_snap)

    def _fork(self, snapshot: Snapshot, n: int) -> list[Sandbox]:
        with self.timings.measure("fork"):
            return snapshot.fork(n)

    # -- groups ----------------------------------------------------------------------------------------------------
    def _attempt(self, traj: Trajectory) -> Attempt:
        """An attempt's ids for TRL: completion = the recovery turns (sampled ids, loss) with the observations
        between them (env_mask 0); reward = the tests minus the behaviour penalties; None (masked) on infra trouble."""
        a, eos = self.args, self.eos
        if traj.prompt_ids is None or not traj.turns or traj.infra_error or not traj.has_tokens:
            return Attempt(traj.prompt_ids or [eos], [eos], [0], [0.0], None)
        ids, mask, lps = [], [], []
        for n, t in enumerate(traj.turns):
            ids += t.completion_ids
            mask += [1] * len(t.completion_ids)
            lps += list(t.logprobs or [0.0] * len(t.completion_ids))
            if n < len(traj.turns) - 1 and t.observation_ids:
                ids += t.observation_ids
                mask += [0] * len(t.observation_ids)
                lps += [0.0] * len(t.observation_ids)
        limit = a.max_completion_length
        if limit is not None and len(ids) > limit:
            ids, mask, lps = ids[:limit], mask[:limit], lps[:limit]
        if not ids:
            return Attempt(traj.prompt_ids, [eos], [0], [0.0], None)
        reward = (1.0 if traj.passed else 0.0) if a.reward_mode == "binary" else float(traj.reward)
        flags = behaviour_penalties(traj)
        reward -= (a.penalty_repeated_command * flags["repeated_command"]
                   + a.penalty_false_completion * flags["false_completion"]
                   + a.penalty_blind_kill * flags["blind_kill"]
                   + a.penalty_undeclared_pass * flags["undeclared_pass"])
        return Attempt(list(traj.prompt_ids), ids, mask, lps, reward, traj.passed, traj.stop_reason == "done")

    def _placeholder(self, task_id: str, G: int) -> Group:
        """A group that could not be run: masked attempts (no loss, no advantage)."""
        eos = self.eos
        return Group(task_id, "none", [Attempt([eos], [eos], [0], [0.0], None) for _ in range(G)])


def behaviour_penalties(traj: Trajectory) -> dict[str, bool]:
    """Which penalised behaviours an attempt showed. `undeclared_pass`: the tests pass, but the policy never said it
    was done (the attempt ran to its turn or context limit); an episode that goes on typing after its fix can undo it,
    and a reward that ignores how an attempt ended lets the policy drift away from stopping."""
    looked = False
    blind_kill = False
    for t in traj.turns:
        for c in t.commands:
            if _KILL.search(c) and not looked:
                blind_kill = True
            if _LOOK.search(c):
                looked = True
    last = traj.turns[-1] if traj.turns else None
    return {
        "repeated_command": any(t.label == failures.REPEATED_FAILURE for t in traj.turns),
        "false_completion": bool(last and last.said_done and traj.reward is not None and not traj.passed),
        "blind_kill": blind_kill,
        "undeclared_pass": bool(traj.passed) and traj.stop_reason != "done",
    }
