"""ReTerm-GRPO: GRPO whose groups are recovery attempts forked from a live sandbox at the moment the policy failed.

Algorithm, per task of a batch (one *slot* = one GRPO group of G = `num_generations` completions):

1. **Scout.** Run one episode of the current policy from the task start, snapshotting the sandbox after every error
   turn (and at the end, before the verifier runs, for `fork_point: final`).
2. **Fork point.** If the scout failed, pick a failure state: `first` / `last` / `random` error turn, or `final` (the
   state after the model said it was done and the tests failed; falls back to the last error). The history is the
   conversation up to and including that turn's observation (for `final`: plus a user turn saying the tests failed).
   Every strategy falls back on the final state when it has no error turn to offer (e.g. a wrong output).
3. **Fork.** `snapshot.fork(G)`: G sandboxes in exactly that state (files and shell state), each continuing the same
   history independently for at most `max_recovery_turns` turns, then verified.
4. **Group.** prompt = the history's token ids (identical for the G attempts); completion = the recovery turns: the
   sampled ids (loss) and the observation ids between them (`env_mask` 0: no loss). reward = the task's tests (1/0,
   or reward.json's value with `reward_mode: partial`), minus the optional behaviour penalties.
5. **Refill.** A group whose valid rewards are all equal carries no signal (zero advantage for every member): it is
   redone, from another failure state of the same scout or with another task, up to `refill_tries` times; the share
   of groups still flat is logged.

A scout that succeeds gives a plain group from the task start (`on_success: start`) or is replaced by another task
(`on_success: skip`). `fork_from: start` skips the scout and runs every group from the task start: plain multi-turn
GRPO in the same trainer, the baseline for every comparison.

How it differs from TRL's GRPOTrainer: only the rollout. TRL samples G single-turn completions of a dataset prompt;
here a group is G multi-turn episodes in sandboxes, and its prompt is a state reached by the policy, not a dataset
row. Everything after the rollout is TRL's: advantages, loss variants (`loss_type`), KL (`beta`), clipping, importance
sampling correction, vLLM weight sync, DeepSpeed/FSDP, logging, checkpoints, Hub push. Infra failures (a sandbox or
verifier that broke) get reward None — TRL's "unscorable": excluded from the group baseline, advantage 0 — and an
all-zero env mask, so they carry no gradient at all.

Determinism: episodes run in threads but generate in lockstep (reterm/training/lockstep.py), phase by phase (all
scouts, then all attempts), with seeds and random choices derived from (seed, global step, process, slot). A run
resumed from a checkpoint therefore continues exactly like the uninterrupted run.
"""

from __future__ import annotations

import random
import re
import threading
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from trl import GRPOConfig, GRPOTrainer

from reterm import failures
from reterm.agent.episode import EpisodeConfig, run_episode, score_episode
from reterm.agent.policy import Generation, SamplingConfig
from reterm.agent.trajectory import Trajectory
from reterm.hardware import CpuPrecisionMixin
from reterm.options import BACKENDS, DEFAULT_SUITE, REPLY_TOKENS, SPLITS, open_backend
from reterm.training.lockstep import LockstepGenerator

FORK_FROM = ("failure", "start")
FORK_POINTS = ("first", "last", "random", "final")
ON_SUCCESS = ("start", "skip")
REWARD_MODES = ("binary", "partial")
TESTS_FAILED_NOTE = "The task's tests ran and did not pass. The task is not complete: keep working on it."


@dataclass
class ReTermGRPOConfig(CpuPrecisionMixin, GRPOConfig):
    """GRPOConfig plus the rollout's settings. Invariants are checked in __post_init__. On a CPU, an unset `bf16`
    follows the processor (reterm.hardware), not TRL's default of True."""

    fork_from: str = field(default="failure", metadata={
        "help": "'failure': groups are recovery attempts forked from a failure state of a scout episode (ReTerm-GRPO); "
                "'start': groups start at the task start (plain multi-turn GRPO, the baseline)."})
    fork_point: str = field(default="first", metadata={
        "help": "Which failure state of a failed scout to fork from: first | last | random error turn, or final (the "
                "end state when the tests failed after the model said done; falls back to the last error)."})
    on_success: str = field(default="start", metadata={
        "help": "When the scout passes: 'start' runs a group from the task start, 'skip' takes another task."})
    refill_tries: int = field(default=1, metadata={
        "help": "How many times a group whose rewards are all equal (no signal) is redone, from another failure state "
                "or another task. 0 disables refills."})
    max_scout_turns: int = field(default=6, metadata={"help": "Turn limit of the scout episode."})
    max_recovery_turns: int = field(default=3, metadata={
        "help": "Turn limit of each recovery attempt (and of each episode with fork_from: start)."})
    max_new_tokens_per_turn: int = field(default=REPLY_TOKENS, metadata={
        "help": "Tokens the policy may generate per turn (transformers generation; vLLM uses max_completion_length)."})
    observation_tokens: int = field(default=256, metadata={"help": "Token budget of one observation."})
    max_context_tokens: int = field(default=2048, metadata={"help": "An episode ends when its context would exceed this."})
    command_timeout_s: float = field(default=30.0, metadata={"help": "Timeout of one command in the sandbox."})
    agent_format: str = field(default="simple", metadata={"help": "Reply format: simple | terminus2."})
    reward_mode: str = field(default="binary", metadata={
        "help": "'binary': 1 when the tests pass, else 0; 'partial': the verifier's reward value (reward.json)."})
    penalty_repeated_command: float = field(default=0.0, metadata={
        "help": "Subtracted when an attempt repeats a failing command unchanged (off at 0)."})
    penalty_false_completion: float = field(default=0.0, metadata={
        "help": "Subtracted when an attempt claims completion while the tests fail (off at 0)."})
    penalty_blind_kill: float = field(default=0.0, metadata={
        "help": "Subtracted when an attempt kills processes without first looking at them (ps/pgrep/top; off at 0)."})
    sandbox_backend: str = field(default="local", metadata={"help": f"Sandbox backend: {' | '.join(BACKENDS)}."})
    sandbox_concurrency: int = field(default=16, metadata={"help": "Most sandboxes running episodes at once."})
    image_map: str | None = field(default=None, metadata={
        "help": "Docker image map 'FROM=TO,...' for task images that cannot be pulled (docker backend); added to "
                "RETERM_IMAGE_MAP."})
    suite: str = field(default=DEFAULT_SUITE, metadata={"help": "Bundled task suite, or a directory of task dirs."})
    suite_split: str = field(default="train", metadata={
        "help": f"Split of the bundled suite: {' | '.join(SPLITS)}."})

    def __post_init__(self):
        super().__post_init__()
        checks = [("fork_from", FORK_FROM), ("fork_point", FORK_POINTS), ("on_success", ON_SUCCESS),
                  ("reward_mode", REWARD_MODES), ("sandbox_backend", BACKENDS), ("suite_split", SPLITS)]
        for name, allowed in checks:
            if getattr(self, name) not in allowed:
                raise ValueError(f"{name} must be one of {', '.join(allowed)}; got {getattr(self, name)!r}")
        for name in ("max_scout_turns", "max_recovery_turns", "max_new_tokens_per_turn", "observation_tokens",
                     "max_context_tokens", "sandbox_concurrency"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1; got {getattr(self, name)}")
        if self.refill_tries < 0:
            raise ValueError(f"refill_tries must be >= 0; got {self.refill_tries}")
        if self.command_timeout_s <= 0:
            raise ValueError(f"command_timeout_s must be > 0; got {self.command_timeout_s}")
        for name in ("penalty_repeated_command", "penalty_false_completion", "penalty_blind_kill"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} is subtracted from the reward and must be >= 0; got {getattr(self, name)}")
        if self.num_generations < 2:
            raise ValueError("num_generations (G, the attempts forked per state) must be >= 2")
        per_process = self.per_device_train_batch_size * self.steps_per_generation
        if per_process % self.num_generations:
            raise ValueError(f"per_device_train_batch_size x steps_per_generation = {per_process} must be a multiple of "
                             f"num_generations = {self.num_generations} (multiple of num_generations), so that every group's G attempts fork from "
                             f"one sandbox on one process")
        EpisodeConfig(format=self.agent_format)  # raises on an unknown format


def task_reward(completions, reterm_reward, **kwargs) -> list[float | None]:
    """The reward the rollout measured (tests, minus penalties); None for an infra failure."""
    return list(reterm_reward)


_KILL = re.compile(r"(^|[;&|(\s])(kill|pkill|killall)\s")
_LOOK = re.compile(r"(^|[;&|(\s])(ps|pgrep|top|htop|pstree|lsof|fuser|pidof)(\s|$)|/proc/")


def behaviour_penalties(traj: Trajectory) -> dict[str, bool]:
    """Which penalised behaviours an attempt showed."""
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
    }


@dataclass
class Attempt:
    prompt_ids: list[int]
    completion_ids: list[int]
    env_mask: list[int]
    logprobs: list[float]
    reward: float | None  # None: infra failure (masked)
    passed: bool = False


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
class _ForkState:
    category: str
    history: list[dict]
    snapshot: object


class ReTermGRPOTrainer(GRPOTrainer):
    """TRL's GRPOTrainer with the ReTerm rollout (see the module docstring)."""

    def __init__(self, model, args: ReTermGRPOConfig, tasks, train_dataset=None, processing_class=None,
                 backend=None, generate_many=None, **kwargs):
        """`tasks`: the Task objects the dataset's `task_id`s name (the dataset defaults to one row per task).
        `backend`: a sandbox backend (default: made from `args.sandbox_backend`). `generate_many`: replaces the
        generator (transformers, or TRL's vLLM with `use_vllm`) by a function `list[prompt_ids] -> list[Generation]`
        that must sample from the trained model (constrained decoding, an external engine kept in sync)."""
        from datasets import Dataset

        if not isinstance(args, ReTermGRPOConfig):
            raise TypeError("args must be a ReTermGRPOConfig")
        if not tasks:
            raise ValueError("no tasks to train on")
        self.tasks = {t.id: t for t in tasks}
        self.task_ids = sorted(self.tasks)
        if train_dataset is None:
            train_dataset = Dataset.from_list([task_row(t) for t in tasks])
        missing = set(train_dataset["task_id"]) - set(self.tasks)
        if missing:
            raise ValueError(f"train_dataset names tasks that were not given: {sorted(missing)[:5]}")
        if backend is None:
            backend = open_backend(args.sandbox_backend, [args.image_map] if args.image_map else [])
        self.backend = backend
        self._batch_inputs: list[dict] | None = None
        self._generate_many = generate_many
        self._lock = threading.Lock()  # guards the timing counters the episode threads add to
        self._episode_seconds = defaultdict(float)
        super().__init__(model=model, reward_funcs=[task_reward], args=args, train_dataset=train_dataset,
                         processing_class=processing_class, rollout_func=self._rollout, **kwargs)

    # -- TRL hooks -------------------------------------------------------------------------------------------------
    def _get_train_sampler(self, dataset=None):
        """TRL's RepeatSampler, reseeded at every epoch from (seed, epoch). Its generator otherwise runs on across
        epochs, so a run resumed at an epoch boundary would see epoch 0's order again instead of the order the
        uninterrupted run saw; the Trainer calls `set_epoch` on the sampler at the start of each epoch."""
        sampler = super()._get_train_sampler(dataset)
        generator = getattr(sampler, "generator", None)
        if generator is not None:
            seed = self.args.seed

            def set_epoch(epoch: int) -> None:
                generator.manual_seed(seed * 1_000_003 + epoch)

            sampler.set_epoch = set_epoch
        return sampler

    def _generate_and_score_completions(self, inputs):
        self._batch_inputs = inputs  # rollout_func only sees the prompts; it needs the task ids
        try:
            return super()._generate_and_score_completions(inputs)
        finally:
            self._batch_inputs = None

    def _rollout(self, prompts, trainer) -> dict:
        inputs = self._batch_inputs
        if inputs is None or len(inputs) != len(prompts):
            raise RuntimeError("ReTerm rollout called outside _generate_and_score_completions")
        G = self.num_generations if self.model.training else self.num_generations_eval
        if len(inputs) % G:
            raise RuntimeError(f"{len(inputs)} rollouts is not a multiple of the group size {G}")
        slots = [inputs[i]["task_id"] for i in range(0, len(inputs), G)]
        for i in range(0, len(inputs), G):
            if len({x["task_id"] for x in inputs[i:i + G]}) != 1:
                raise RuntimeError("a group's rollouts span different tasks; per-process batches must hold whole "
                                   "groups (see ReTermGRPOConfig)")
        t0 = time.monotonic()
        gen = self._generator()
        try:
            groups, stats = self._run_groups(slots, G, gen)
        finally:
            self.model.train()
            self._close_generator(gen)
        rollout_s = time.monotonic() - t0
        self._log_rollout(groups, stats, rollout_s, gen)
        out = {"prompt_ids": [], "completion_ids": [], "logprobs": [], "env_mask": [], "reterm_reward": [],
               "reterm_category": [], "reterm_task": []}
        for g in groups:
            for a in g.attempts:
                out["prompt_ids"].append(a.prompt_ids)
                out["completion_ids"].append(a.completion_ids)
                out["logprobs"].append(a.logprobs)
                out["env_mask"].append(a.env_mask)
                out["reterm_reward"].append(a.reward)
                out["reterm_category"].append(g.category)
                out["reterm_task"].append(g.task_id)
        return out

    def training_step(self, model, inputs, num_items_in_batch):
        t0 = time.monotonic()
        self._rollout_s = 0.0
        loss = super().training_step(model, inputs, num_items_in_batch)
        self._metrics["train"]["reterm/time_step_s"].append(time.monotonic() - t0)
        self._metrics["train"]["reterm/time_train_s"].append(time.monotonic() - t0 - self._rollout_s)
        return loss

    # -- generation ------------------------------------------------------------------------------------------------
    def _generator(self) -> LockstepGenerator:
        args = self.args
        sampling = SamplingConfig(max_new_tokens=args.max_new_tokens_per_turn, temperature=args.temperature,
                                  top_p=args.top_p)
        seed = hash((args.seed, self.state.global_step, self.accelerator.process_index)) & 0x7FFFFFFF
        name = getattr(self.model.config, "_name_or_path", "policy")
        if self._generate_many is not None:
            self.model.eval()
            return LockstepGenerator(self._timed(self._generate_many), self.processing_class, sampling, name, seed)
        if self.use_vllm:
            return LockstepGenerator(self._vllm_generate_many, self.processing_class, sampling, name, seed)
        from reterm.agent.policy import TransformersPolicy
        from trl.models import unwrap_model_for_generation

        ctx = unwrap_model_for_generation(self.model_wrapped, self.accelerator,
                                          gather_deepspeed3_params=self.args.ds3_gather_for_generation)
        unwrapped = ctx.__enter__()
        policy = TransformersPolicy(name, sampling, max_batch=1 << 30, model=unwrapped,
                                    tokenizer=self.processing_class)
        gen = LockstepGenerator(self._timed(policy.generate_many), self.processing_class, sampling, name, seed)
        gen._closers = [policy.close, lambda: ctx.__exit__(None, None, None)]
        return gen

    def _timed(self, fn):
        def run(prompts):
            t0 = time.monotonic()
            try:
                return fn(prompts)
            finally:
                with self._lock:
                    self._episode_seconds["generate"] += time.monotonic() - t0
        return run

    def _close_generator(self, gen) -> None:
        for close in getattr(gen, "_closers", []):
            close()

    def _vllm_generate_many(self, prompts: list[list[int]]) -> list[Generation]:
        """One lockstep round through TRL's vLLM path (colocate or server); not exercised here (no GPU)."""
        t0 = time.monotonic()
        _, completion_ids, logprobs, _ = self.vllm_generation.generate(prompts=prompts, images=None,
                                                                       num_generations=1)
        self._episode_seconds["generate"] += time.monotonic() - t0
        eos = set(self.eos_token_ids)
        out = []
        for ids, lps in zip(completion_ids, logprobs):
            lp = [(x[0] if isinstance(x, list) else x) for x in lps]
            lp = [float("nan") if v is None else v for v in lp]
            finish = "stop" if ids and ids[-1] in eos else "length"
            out.append(Generation(self.processing_class.decode(ids, skip_special_tokens=True), list(ids), lp, finish))
        return out

    # -- the rollout -----------------------------------------------------------------------------------------------
    def _rng(self, *parts) -> random.Random:
        return random.Random(":".join(str(p) for p in (self.args.seed, self.state.global_step,
                                                        self.accelerator.process_index, *parts)))

    def _episode_config(self, turns: int, snapshot_on_error: bool = False) -> EpisodeConfig:
        a = self.args
        return EpisodeConfig(format=a.agent_format, max_turns=turns, observation_tokens=a.observation_tokens,
                             command_timeout_s=a.command_timeout_s, max_context_tokens=a.max_context_tokens,
                             snapshot_on_error=snapshot_on_error)

    def _run_groups(self, slots: list[str], G: int, gen: LockstepGenerator) -> tuple[list[Group], dict]:
        args = self.args
        stats = {"refills": 0, "scouts": 0, "scouts_passed": 0, "infra": 0}
        self._episode_seconds = defaultdict(float)
        final: list[Group | None] = [None] * len(slots)
        task_of = list(slots)
        pending_states: dict[int, list[_ForkState]] = {}
        tries = [0] * len(slots)
        todo = list(range(len(slots)))
        try:
            while todo:
                # phase 1: scouts for the slots that have no unused failure state left
                need_scout = [i for i in todo if args.fork_from == "failure" and not pending_states.get(i)]
                scouts = self._run_phase(
                    [(("scout", i, tries[i]), self.tasks[task_of[i]], None, None) for i in need_scout],
                    gen, self._episode_config(args.max_scout_turns, snapshot_on_error=True), scout=True)
                starts = {}
                for i in need_scout:
                    traj, final_snap = scouts[("scout", i, tries[i])]
                    stats["scouts"] += 1
                    states = self._fork_states(traj, final_snap, self._rng("fork", i, tries[i]))
                    if traj.reward is None:
                        stats["infra"] += 1
                    if traj.passed:
                        stats["scouts_passed"] += 1
                    if states:
                        pending_states[i] = states
                    elif traj.passed and args.on_success == "start":
                        starts[i] = True
                    else:  # passed with on_success=skip, or nothing to fork from: another task
                        starts[i] = False
                if args.fork_from == "start":
                    starts = {i: True for i in todo}
                # phase 2: G attempts per slot, forked from its state (or from the task start)
                jobs, meta = [], {}
                for i in todo:
                    if starts.get(i) is False:
                        continue
                    if starts.get(i):
                        meta[i] = ("start", None)
                        for g in range(G):
                            jobs.append((("attempt", i, tries[i], g), self.tasks[task_of[i]], None, None))
                    else:
                        state = pending_states[i].pop(0)
                        meta[i] = (state.category, state)
                        forks = self._fork(state.snapshot, G)
                        for g in range(G):
                            jobs.append((("attempt", i, tries[i], g), self.tasks[task_of[i]], forks[g],
                                         state.history))
                results = self._run_phase(jobs, gen, self._episode_config(args.max_recovery_turns))
                for i, (category, state) in meta.items():
                    if state is not None:
                        state.snapshot.release()
                    atts = [self._attempt(results[("attempt", i, tries[i], g)][0]) for g in range(G)]
                    stats["infra"] += sum(a.reward is None for a in atts)
                    final[i] = Group(task_of[i], category, atts, tries[i])
                # refill flat groups and skipped slots
                nxt = []
                for i in todo:
                    group = final[i]
                    if group is not None and not group.flat:
                        continue
                    if tries[i] >= args.refill_tries:
                        if group is None:  # nothing could be run: a masked placeholder group
                            final[i] = self._placeholder(task_of[i], G)
                        continue
                    tries[i] += 1
                    stats["refills"] += 1
                    if not pending_states.get(i):
                        for s in pending_states.pop(i, []):
                            s.snapshot.release()
                        task_of[i] = self._rng("refill", i, tries[i]).choice(self.task_ids)
                    final[i] = None
                    nxt.append(i)
                todo = nxt
        finally:
            for states in pending_states.values():
                for s in states:
                    s.snapshot.release()
        return final, stats

    def _run_phase(self, jobs, gen: LockstepGenerator, cfg: EpisodeConfig, scout: bool = False) -> dict:
        """Runs episodes concurrently (at most sandbox_concurrency at once, in a fixed order); closes every sandbox."""
        results = {}
        limit = self.args.sandbox_concurrency
        for start in range(0, len(jobs), limit):
            chunk = jobs[start:start + limit]
            keys = [j[0] for j in chunk]
            with gen.episodes(keys), ThreadPoolExecutor(max_workers=len(chunk) or 1) as pool:
                futures = {j[0]: pool.submit(self._episode, j, gen, cfg, scout) for j in chunk}
            for k, f in futures.items():
                results[k] = f.result()
        # sandboxes of forks that were never started (a chunk failed) are closed by _episode's finally
        return results

    def _episode(self, job, gen: LockstepGenerator, cfg: EpisodeConfig, scout: bool):
        key, task, sandbox, history = job
        policy = gen.policy(key)
        final_snap = None
        t0 = time.monotonic()
        try:
            if sandbox is None:
                sandbox = self.backend.start(task)
            traj = run_episode(policy, sandbox, task, cfg, verify=False, history=history)
            gen.finish(key)
            if traj.infra_error is None:
                if scout:  # the end state, before the verifier touches it: a fork point when no error turn is
                    final_snap = self._timed_snapshot(sandbox)
                score_episode(traj, sandbox, task)
        except Exception as e:  # a sandbox that cannot start or broke: an infra failure, never a 0 reward
            traj = Trajectory(task_id=task.id, model=policy.model_name, format=cfg.format)
            traj.snapshots = {}
            traj.infra_error = f"{type(e).__name__}: {e}"
        finally:
            gen.finish(key)
            if sandbox is not None:
                sandbox.close()
            with self._lock:
                self._episode_seconds["episodes"] += time.monotonic() - t0
        if traj.infra_error and final_snap is not None:
            final_snap.release()
            final_snap = None
        return traj, final_snap

    def _timed_snapshot(self, sandbox):
        t0 = time.monotonic()
        try:
            return sandbox.snapshot()
        finally:
            with self._lock:
                self._episode_seconds["snapshot"] += time.monotonic() - t0

    def _fork(self, snapshot, n: int):
        t0 = time.monotonic()
        try:
            return snapshot.fork(n)
        finally:
            with self._lock:
                self._episode_seconds["fork"] += time.monotonic() - t0

    def _fork_states(self, traj: Trajectory, final_snap, rng: random.Random) -> list[_ForkState]:
        """The failure states to fork from, best first (by the fork_point strategy); releases the others."""
        snaps = dict(traj.snapshots or {})
        try:
            if traj.reward is None or traj.passed:
                return []
            errors = [t for t in traj.turns if t.snapshot_id in snaps and t.observation]
            states = [_ForkState(t.label, traj.messages[: 2 + 2 * (t.index + 1)], snaps.pop(t.snapshot_id))
                      for t in errors]
            if final_snap is not None:
                history = [dict(m) for m in traj.messages]
                if history[-1]["role"] == "user":
                    history[-1] = {"role": "user", "content": history[-1]["content"] + "\n\n" + TESTS_FAILED_NOTE}
                else:
                    history.append({"role": "user", "content": TESTS_FAILED_NOTE})
                label = traj.turns[-1].label if traj.turns else failures.WRONG_OUTPUT
                final = _ForkState(label, history, final_snap)
                final_snap = None
            else:
                final = None
            point = self.args.fork_point
            if point == "last":
                states.reverse()
            elif point == "random":
                rng.shuffle(states)
            elif point == "final":
                states.reverse()
                if final is not None and traj.turns and traj.turns[-1].said_done:
                    states.insert(0, final)
                    final = None
            if final is not None:  # every strategy falls back on the end state (e.g. wrong output, no error turn)
                states.append(final)
            return states
        finally:
            for s in snaps.values():
                s.release()
            if final_snap is not None:
                final_snap.release()

    def _attempt(self, traj: Trajectory) -> Attempt:
        a = self.args
        eos = self.processing_class.eos_token_id
        if traj.prompt_ids is None or not traj.turns or traj.infra_error or not traj.has_tokens:
            prompt = traj.prompt_ids or [eos]
            return Attempt(prompt, [eos], [0], [0.0], None)
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
        if a.reward_mode == "binary":
            reward = 1.0 if traj.passed else 0.0
        else:
            reward = float(traj.reward)
        flags = behaviour_penalties(traj)
        reward -= (a.penalty_repeated_command * flags["repeated_command"]
                   + a.penalty_false_completion * flags["false_completion"]
                   + a.penalty_blind_kill * flags["blind_kill"])
        return Attempt(list(traj.prompt_ids), ids, mask, lps, reward, traj.passed)

    def _placeholder(self, task_id: str, G: int) -> Group:
        eos = self.processing_class.eos_token_id
        return Group(task_id, "none", [Attempt([eos], [eos], [0], [0.0], None) for _ in range(G)])

    # -- logging ---------------------------------------------------------------------------------------------------
    def _log_rollout(self, groups: list[Group], stats: dict, rollout_s: float, gen: LockstepGenerator) -> None:
        m = self._metrics["train" if self.model.training else "eval"]
        gen_s = self._episode_seconds.get("generate", 0.0)
        self._rollout_s = getattr(self, "_rollout_s", 0.0) + rollout_s
        m["reterm/time_rollout_s"].append(rollout_s)
        m["reterm/time_generate_s"].append(gen_s)
        m["reterm/time_sandbox_s"].append(max(0.0, rollout_s - gen_s))
        m["reterm/time_fork_s"].append(self._episode_seconds.get("fork", 0.0))
        m["reterm/time_snapshot_s"].append(self._episode_seconds.get("snapshot", 0.0))
        m["reterm/flat_group_fraction"].append(sum(g.flat for g in groups) / max(1, len(groups)))
        m["reterm/refills"].append(stats["refills"])
        m["reterm/infra_failures"].append(stats["infra"])
        m["reterm/scouts"].append(stats["scouts"])
        m["reterm/scout_pass_rate"].append(stats["scouts_passed"] / stats["scouts"] if stats["scouts"] else 0.0)
        m["reterm/generated_tokens"].append(gen.generated_tokens)
        valid = [a for g in groups for a in g.attempts if a.reward is not None]
        m["reterm/attempt_pass_rate"].append(sum(a.passed for a in valid) / len(valid) if valid else 0.0)
        per_cat = defaultdict(list)
        for g in groups:
            per_cat[g.category] += [a.passed for a in g.attempts if a.reward is not None]
        for cat, passed in per_cat.items():
            if passed:
                m[f"reterm/recovery_rate/{cat}"].append(sum(passed) / len(passed))
        self.last_groups = groups  # for tests and callers that want the raw groups
        self.last_rollout_stats = dict(stats, rollout_s=rollout_s, generate_s=gen_s)


def task_row(task) -> dict:
    """A dataset row for a task: the prompt TRL logs (the instruction) and the task id the rollout uses."""
    return {"prompt": [{"role": "user", "content": task.instruction.strip()}], "task_id": task.id}
