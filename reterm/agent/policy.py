"""Policies: turn a conversation into the next assistant message, with token ids and logprobs when they can.

- `TransformersPolicy`: a local HF causal LM. Requests from many concurrent episodes are gathered by one generation
  thread into batches, so an episode waiting on its sandbox never holds up the others. Each conversation's key/value
  states are kept between turns (reterm/agent/kvcache.py), so a turn prefills only its new tokens. Works on CPU.
- `OpenAIPolicy`: any OpenAI-compatible chat endpoint (vLLM `serve`, SGLang, hosted APIs), with a concurrency limit,
  retries with backoff and timeouts; logprobs when the server returns them, no token ids.
- `VLLMPolicy`: in-process vLLM engine, only with the `vllm` extra installed (GPU).
Both local ones are `TokenPolicy`s: they render prompts with their own tokenizer and generate from token ids.
"""

from __future__ import annotations

import contextlib
import os
import queue
import random
import threading
import time
from dataclasses import dataclass

from reterm import stopping
from reterm.hardware import generation_dtype
from reterm.models import load_model_and_tokenizer, resolve_model
from reterm.options import POLICIES, REPLY_TOKENS


@dataclass
class Generation:
    text: str
    token_ids: list[int] | None = None
    logprobs: list[float] | None = None
    finish_reason: str = "stop"  # stop | length


@dataclass
class SamplingConfig:
    max_new_tokens: int = REPLY_TOKENS
    temperature: float = 0.7
    top_p: float = 1.0
    top_k: int = 0  # 0: no top-k cut (transformers' own default would be 50, which GRPO's loss does not assume)
    seed: int | None = None

    def __post_init__(self):
        if self.max_new_tokens < 1:
            raise ValueError(f"max_new_tokens must be >= 1, got {self.max_new_tokens}")
        if self.temperature < 0:
            raise ValueError(f"temperature must be >= 0 (0 = greedy), got {self.temperature}")
        if not 0 < self.top_p <= 1:
            raise ValueError(f"top_p must be in (0, 1], got {self.top_p}")
        if self.top_k < 0:
            raise ValueError(f"top_k must be >= 0 (0 = no top-k cut), got {self.top_k}")


def sampled_logprobs(logits, token_ids, temperature: float):
    """Logprobs of `token_ids` under the distribution they were sampled from, as GRPO's loss computes them:
    `log_softmax(logits / temperature)` over the raw logits (TRL divides by the same temperature; top-p/top-k cuts
    are not renormalised, as in TRL). Greedy decoding (temperature 0) records the raw logits' logprobs.
    `logits`: (batch, steps, vocab); `token_ids`: (batch, steps)."""
    import torch

    scaled = logits.float() / temperature if temperature > 0 else logits.float()
    return torch.log_softmax(scaled, dim=-1).gather(-1, token_ids.unsqueeze(-1)).squeeze(-1)


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


class TransformersPolicy(TokenPolicy):
    name = "transformers"
    prefix_cache = None  # a PrefixCache when key/value states are kept between turns

    def __init__(self, model_name: str, sampling: SamplingConfig | None = None, max_batch: int = 16,
                 batch_wait_s: float = 0.02, model=None, tokenizer=None, dtype: str | None = "auto",
                 kv_cache_tokens: int | None = None, gather_fraction: float = 0.25, gather_max_s: float = 2.0):
        """`kv_cache_tokens`: how many tokens' key/value states to keep between turns (default: RETERM_KV_CACHE_TOKENS
        or 65,536, ~3 GB for SmolLM2-135M in float32; 0: none, every turn re-encodes its whole prompt, as models with
        sliding or hybrid caches always do).

        Batching: a batch takes the requests that arrive within `batch_wait_s` of the first, and then waits for the
        episodes whose request is expected: those running the commands of their last reply (they got a generation
        from this policy and have neither asked again nor released their conversation) and those whose sandbox is
        starting (`expecting`), at most `gather_fraction` of the last batch's time and `gather_max_s` (the first
        batch: `gather_max_s`). Without that wait, an episode whose commands took 50 ms longer than the others'
        missed the batch and ran a batch of its own next, at nearly a full batch's cost (a decode step reads every
        weight whatever the batch size), and episodes whose sandboxes started late stayed a batch behind the others
        to the end; a lone episode never waits (no other is expected)."""
        import torch

        from reterm.agent.kvcache import PrefixCache, supports_prefix_cache

        if model is None:  # `dtype` auto: bf16 where the CPU runs it natively and faster, else float32
            model, tokenizer = load_model_and_tokenizer(model_name, dtype=generation_dtype(dtype))
        super().__init__(model_name, tokenizer, sampling)
        self.model = model.eval()
        if kv_cache_tokens is None:
            kv_cache_tokens = kv_cache_tokens_default()
        self.prefix_cache = (PrefixCache(kv_cache_tokens) if kv_cache_tokens and supports_prefix_cache(model)
                             else None)
        self.max_batch = max_batch
        self.batch_wait_s = batch_wait_s
        self.gather_fraction, self.gather_max_s = gather_fraction, gather_max_s
        self._last_batch_s = None  # seconds, once a batch has run
        self._expected: set[int] = set()  # threads whose request is expected (see __init__)
        self._clients = threading.Condition()
        self._torch = torch
        self._requests: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="reterm-generate", daemon=True)
        self._thread.start()
        if self.sampling.seed is not None:
            torch.manual_seed(self.sampling.seed)

    @property
    def eos_ids(self) -> set[int]:
        ids = {self.tokenizer.eos_token_id}
        gen_eos = self.model.generation_config.eos_token_id
        ids.update(gen_eos if isinstance(gen_eos, list) else [gen_eos] if gen_eos is not None else [])
        return {i for i in ids if i is not None}

    def generate(self, messages: list[dict], prompt_ids: list[int] | None = None) -> Generation:
        """Through the batching thread: concurrent episodes' requests share one model call."""
        ids = prompt_ids if prompt_ids is not None else self.render_prompt(messages)
        box = {"ids": ids, "done": threading.Event(), "client": threading.get_ident()}
        self._requests.put(box)
        self._client_back(box["client"])
        box["done"].wait()
        if "error" in box:
            raise box["error"]
        return box["result"]

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

    def _gather(self, batch: list[dict]) -> None:
        """Adds to `batch` the requests of the episodes whose request is expected, waiting for them at most
        `gather_fraction` of the last batch's time (see __init__)."""
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
        self._last_batch_s = time.monotonic() - t0  # bounds the next batch's gathering wait
        self.stats["batches"] += 1
        self.stats["sequences"] += len(prompts)
        self.stats["gen_seconds"] += self._last_batch_s
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
        out = self.model.generate(
            input_ids=input_ids, attention_mask=attention, max_new_tokens=s.max_new_tokens,
            do_sample=not greedy, temperature=None if greedy else s.temperature,
            top_p=None if greedy else s.top_p, top_k=None if greedy else s.top_k, pad_token_id=pad,
            return_dict_in_generate=True, output_logits=True, stopping_criteria=_stop_when_told(),
        )
        new = out.sequences[:, width:]
        logp = sampled_logprobs(torch.stack(out.logits, dim=1), new, s.temperature)
        return [(new[i].tolist(), logp[i].tolist()) for i in range(len(prompts))]

    def release(self, prompt_ids: list[int]) -> None:
        """The conversation ended: its states are dropped, and batches no longer wait for its episode."""
        self._client_back(threading.get_ident())
        if self.prefix_cache is not None:
            self.prefix_cache.release(prompt_ids)

    def close(self) -> None:
        """Stops the batching thread and waits for it: a daemon thread still inside a torch call when the interpreter
        exits can abort the process after its work is done (a collect run once exited 134 that way)."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout=30)
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


class VLLMPolicy(TokenPolicy):
    """In-process vLLM (GPU). Same token bookkeeping as `TransformersPolicy`; generation through vLLM."""

    name = "vllm"

    def __init__(self, model_name: str, sampling: SamplingConfig | None = None, **engine_kwargs):
        try:
            from vllm import LLM, SamplingParams
        except ImportError:
            raise ImportError("the vllm policy needs the optional extra: pip install 'reterm[vllm]' "
                              "(GPU machines only); on CPU use --policy transformers") from None
        from transformers import AutoTokenizer

        path = resolve_model(model_name)
        super().__init__(model_name, AutoTokenizer.from_pretrained(path), sampling)
        self._llm = LLM(model=path, **engine_kwargs)
        self._params = SamplingParams(max_tokens=self.sampling.max_new_tokens, temperature=self.sampling.temperature,
                                      top_p=self.sampling.top_p, top_k=self.sampling.top_k or -1,
                                      seed=self.sampling.seed, logprobs=0)
        self._lock = threading.Lock()

    def generate_many(self, prompts: list[list[int]]) -> list[Generation]:
        with self._lock:
            outs = self._llm.generate([{"prompt_token_ids": p} for p in prompts], self._params, use_tqdm=False)
        results = []
        for o in outs:
            c = o.outputs[0]
            lps = [next(iter(d.values())).logprob for d in c.logprobs] if c.logprobs else None
            results.append(Generation(c.text, list(c.token_ids), lps,
                                      "length" if c.finish_reason == "length" else "stop"))
        return results


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


def make_policy(kind: str, model: str, sampling: SamplingConfig | None = None, **kw) -> Policy:
    if kind == "transformers":
        return TransformersPolicy(model, sampling, **kw)
    if kind == "openai":
        return OpenAIPolicy(model, sampling=sampling, **kw)
    if kind == "vllm":
        return VLLMPolicy(model, sampling, **kw)
    raise ValueError(f"unknown policy {kind!r}; choose one of {', '.join(POLICIES)}")
