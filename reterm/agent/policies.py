"""`make_policy`: a policy by the name every entry point's `--policy` option uses. The engines live in their own
modules (reterm/agent/policy.py: transformers, openai, replay; reterm/agent/vllm_policy.py: vllm), this one sits
above them, so an engine is imported only when asked for."""

from __future__ import annotations

from reterm.agent.policy import OpenAIPolicy, Policy, TransformersPolicy
from reterm.agent.sampling import SamplingConfig
from reterm.options import POLICIES


def make_policy(kind: str, model: str, sampling: SamplingConfig | None = None, **kw) -> Policy:
    if kind == "transformers":
        return TransformersPolicy(model, sampling, **kw)
    if kind == "openai":
        return OpenAIPolicy(model, sampling=sampling, **kw)
    if kind == "vllm":
        from reterm.agent.vllm_policy import VLLMPolicy  # imports vLLM: only when asked for

        return VLLMPolicy(model, sampling, **kw)
    raise ValueError(f"unknown policy {kind!r}; choose one of {', '.join(POLICIES)}")
