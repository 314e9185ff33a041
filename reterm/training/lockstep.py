"""Lockstep generation for many concurrent episodes: deterministic batches, one model call per round.

Each episode runs `run_episode` in its own thread (sandbox work overlaps), but generation waits until every live
episode is either waiting for its next reply or finished; then all waiting prompts are generated in one batch, in the
episodes' fixed order, under a seed derived from (seed, round). The batches therefore do not depend on thread timing,
and a run is reproducible — which resuming a training run from a checkpoint needs.

A round that raises is handed to the episodes waiting in it (they end as infra failures: a transient server hiccup
costs a few masked attempts); `max_failed_rounds` failed rounds in a row (counted on from the previous generator's
`failed_rounds`, so across steps) raise `GenerationFailed`, and so does `check()` after a rollout in which every
round failed. The rollout never turns `GenerationFailed` into an infra failure: a broken generator stops training
with its error instead of giving steps of masked attempts that train on nothing.

With several processes, some generators are collective (TRL's vLLM server mode gathers every process's prompts and
slices the answers by process index; ZeRO-3/FSDP generation runs with `synced_gpus`): every process must call them
equally often, with equally many prompts. Lockstep rounds differ between processes (other tasks, other episode
lengths), so `CollectiveRounds` pads each round to the largest process's size and keeps a finished process taking
part, with no-op prompts, until every process is done.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack, contextmanager

from reterm.agent.policy import Generation, Policy


class GenerationFailed(RuntimeError):
    """Generation failed in several rounds in a row: the rollout stops with this error."""


class _RoundError:
    """A failed round's answer to each of its episodes."""

    def __init__(self, error: BaseException):
        self.error = error


class CollectiveRounds:
    """A batch generator that every process must call together, made safe for rounds that differ per process.

    `all_gather(obj) -> list` is a collective over the processes (accelerate's `gather_object`); `noop_prompt` pads
    a round (its answers are dropped). `equal_sizes`: every process passes equally many prompts (TRL's vLLM server
    mode slices the gathered answers by `process_index * len(prompts)`); otherwise at least one (`synced_gpus`).
    Call `drain()` when this process's rollout is done: it keeps taking part until every process is."""

    def __init__(self, generate_many, all_gather, noop_prompt: list[int], equal_sizes: bool = True):
        self._generate_many = generate_many
        self._all_gather = all_gather
        self._noop = list(noop_prompt)
        self._equal = equal_sizes
        self.rounds = 0
        self.padded = 0  # no-op prompts sent

    def __call__(self, prompts: list[list[int]]) -> list:
        self._round(len(prompts), done=False)  # the sizes; the round itself follows with the same pad rule
        return self._last(prompts)

    def drain(self) -> None:
        while self._round(0, done=True):
            self._last([])

    def _round(self, n: int, done: bool) -> bool:
        """Exchanges (prompts, done) with every process; returns whether anyone still generates."""
        info = self._all_gather([(n, done)])
        self._size = max(m for m, _ in info) if self._equal else max(1, n)
        return not all(d for _, d in info)

    def _last(self, prompts: list[list[int]]) -> list:
        pad = self._size - len(prompts)
        self.rounds += 1
        self.padded += pad
        return self._generate_many(list(prompts) + [self._noop] * pad)[:len(prompts)]


class LockstepGenerator:
    """Wraps a batch generator `generate_many(list[prompt_ids]) -> list[Generation]`.

    `cleanup` holds what the batch generator needs undone when the generator is done with (e.g. a policy to close,
    a model unwrapped for generation): `close()`, or leaving `with generator:`, unwinds it, last in first out."""

    def __init__(self, generate_many, tokenizer, sampling, model_name: str, seed: int | None = None,
                 cleanup: ExitStack | None = None, max_failed_rounds: int = 3, failed_rounds: int = 0):
        self._generate_many = generate_many
        self._cleanup = cleanup or ExitStack()
        self.tokenizer = tokenizer
        self.sampling = sampling
        self.model_name = model_name
        self.seed = seed
        self._cond = threading.Condition()
        self._live: set = set()
        self._pending: dict = {}
        self._results: dict = {}
        self._error: BaseException | None = None  # set once generation is given up: every caller raises it
        self.max_failed_rounds = max_failed_rounds
        self.failed_rounds = failed_rounds  # in a row
        self._last_error: Exception | None = None
        self.rounds = 0
        self.generated_tokens = 0

    def close(self) -> None:
        self._cleanup.close()

    def check(self) -> None:
        """Raises GenerationFailed when rounds were tried and none succeeded (a step that would train on nothing)."""
        if self._last_error is not None and self.rounds == 0:
            raise GenerationFailed(f"every generation round of the rollout failed; last error: "
                                   f"{type(self._last_error).__name__}: {self._last_error}") from self._last_error

    def drain(self) -> None:
        """This process's rollout is done: take part in other processes' collective rounds until they are too."""
        drain = getattr(self._generate_many, "drain", None)
        if drain is not None:
            drain()

    def __enter__(self) -> "LockstepGenerator":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @contextmanager
    def episodes(self, keys):
        """Registers the episodes that will call `policy(key).generate`; all of them, before any thread starts."""
        with self._cond:
            self._live.update(keys)
        try:
            yield
        finally:
            with self._cond:
                self._live.difference_update(keys)
                self._maybe_run()

    def policy(self, key) -> "_EpisodePolicy":
        return _EpisodePolicy(self, key)

    def finish(self, key) -> None:
        with self._cond:
            self._live.discard(key)
            self._maybe_run()

    def _generate(self, key, prompt_ids: list[int]) -> Generation:
        with self._cond:
            if key not in self._live:
                raise RuntimeError(f"episode {key!r} is not registered with the lockstep generator")
            self._pending[key] = prompt_ids
            self._maybe_run()
            while key not in self._results and self._error is None:
                self._cond.wait()
            if self._error is not None:
                raise self._error
            result = self._results.pop(key)
            if isinstance(result, _RoundError):
                raise result.error
            return result

    def _maybe_run(self) -> None:  # called with the lock held
        if not self._pending or set(self._pending) != self._live:
            return
        keys = sorted(self._pending, key=repr)
        prompts = [self._pending.pop(k) for k in keys]
        try:
            import torch

            with torch.random.fork_rng(devices=[]):
                if self.seed is not None:
                    torch.manual_seed(hash((self.seed, self.rounds)) & 0x7FFFFFFF)
                gens = self._generate_many(prompts)
        except Exception as e:
            self._fail_round(keys, e)
            return
        except BaseException as e:  # KeyboardInterrupt and the like: every episode stops
            self._error = e
            self._cond.notify_all()
            return
        self.failed_rounds = 0
        self.rounds += 1
        for k, g in zip(keys, gens):
            self._results[k] = g
            self.generated_tokens += len(g.token_ids)
        self._cond.notify_all()


    def _fail_round(self, keys, error: Exception) -> None:  # called with the lock held
        self.failed_rounds += 1
        self._last_error = error
        if self.failed_rounds >= self.max_failed_rounds:
            self._error = GenerationFailed(f"generation failed {self.failed_rounds} rounds in a row; last error: "
                                           f"{type(error).__name__}: {error}")
            self._error.__cause__ = error
        else:
            for k in keys:
                self._results[k] = _RoundError(error)
        self._cond.notify_all()


class _EpisodePolicy(Policy):
    name = "lockstep"

    def __init__(self, gen: LockstepGenerator, key):
        self._gen = gen
        self.key = key
        self.tokenizer = gen.tokenizer
        self.sampling = gen.sampling
        self.model_name = gen.model_name

    def generate(self, messages: list[dict], prompt_ids: list[int] | None = None) -> Generation:
        if prompt_ids is None:
            prompt_ids = list(self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True,
                                                                 return_dict=True)["input_ids"])
        return self._gen._generate(self.key, prompt_ids)
