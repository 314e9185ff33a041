"""What every generation engine shares, below the policies: a `Generation` (text, token ids exactly as sampled,
their logprobs), the `SamplingConfig`, and `sampled_logprobs`, the one definition of "the logprob of a sampled token"
that the transformers path, the KV-cached decoder and the trainers agree on (vLLM records the same with
`logprobs_mode="processed_logprobs"`)."""

from __future__ import annotations

from dataclasses import dataclass

from reterm.options import REPLY_TOKENS


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
