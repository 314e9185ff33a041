"""Lockstep generation for many concurrent episodes: deterministic batches, one model call per round.

Each episode runs `run_episode` in its own thread (sandbox work overlaps), but generation waits until every live
episode is either waiting for its next reply or finished; then all waiting prompts are generated in one batch, in the
episodes' fixed order, under a seed derived from (seed, round). The batches therefore do not depend on thread timing,
and a run is reproducible — which resuming a training run from a checkpoint needs.
"""

from __future__ import annotations

import threading
from contextlib import ExitStack, contextmanager

from reterm.agent.policy import Generation, Policy


class LockstepGenerator:
    """Wraps a batch generator `generate_many(list[prompt_ids]) -> list[Generation]`.

    `cleanup` holds what the batch generator needs undone when the generator is done with (e.g. a policy to close,
    a model unwrapped for generation): `close()`, or leaving `with generator:`, unwinds it, last in first out."""

    def __init__(self, generate_many, tokenizer, sampling, model_name: str, seed: int | None = None,
                 cleanup: ExitStack | None = None):
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
        self._error: BaseException | None = None
        self.rounds = 0
        self.generated_tokens = 0

    def close(self) -> None:
        self._cleanup.close()

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
            return self._results.pop(key)

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
        except BaseException as e:  # every waiting episode sees the error
            self._error = e
            self._cond.notify_all()
            return
        self.rounds += 1
        for k, g in zip(keys, gens):
            self._results[k] = g
            self.generated_tokens += len(g.token_ids)
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
