"""vLLM's importance-sampling correction made from the loss forward's own logprobs (`is_ratio_from_loss_forward`).

With `use_vllm` and `vllm_importance_sampling_correction`, TRL multiplies each token's policy loss by
exp(logp_model - logp_engine), the model's logprob of the sampled token over the engine's, truncated or masked
(`vllm_importance_sampling_mode`), to correct for the engine sampling from a slightly different distribution. It gets
logp_model from a forward of the trained model over the whole generated batch, without gradients, before the loss
(`old_per_token_logps` in `GRPOTrainer._generate_and_score_completions`), and that forward always runs under vLLM.

When one generation serves exactly one optimizer step (`num_iterations` 1 and `gradient_accumulation_steps` a
multiple of `steps_per_generation`), no weight changes between that forward and the loss forwards of the
step's micro-batches: logp_model is then the loss forward's own logprob, detached, which the loss computes anyway.
`on_policy` says when that holds; `ratio` computes the correction from it, on the rows the loss runs (with
`skip_zero_advantage_rows`, only those with a gradient), and the trainer skips TRL's extra forward
(reterm/training/grpo.py). The PPO ratio is then exactly 1 (TRL's own on-policy case) and the loss and its gradient
are TRL's up to float rounding (tests/test_grpo.py trains one step both ways).

What is logged changes with it: TRL's `sampling/sampling_logp_difference/*` and `sampling/importance_sampling_ratio/*`
are then measured on each micro-batch's loss rows (`log_stats`), not on the whole generated batch at once.
"""

from __future__ import annotations

import math

import torch

MODES = ("token_truncate", "token_mask", "sequence_truncate", "sequence_mask")


def on_policy(args, num_iterations: int) -> bool:
    """True when no optimizer step falls between a generation and the loss forwards that train on it."""
    generate_every = args.steps_per_generation * num_iterations
    return num_iterations == 1 and args.gradient_accumulation_steps % generate_every == 0


def ratio(model_logps: torch.Tensor, sampling_logps: torch.Tensor, mask: torch.Tensor, mode: str,
          clip_min: float | None, clip_max: float | None) -> torch.Tensor:
    """The correction factor, (B, T) for the token modes and (B, 1) for the sequence modes: exp of the model's minus
    the engine's logprob (summed over the sequence's tokens for the sequence modes), clamped to [clip_min, clip_max]
    (`*_truncate`) or set to 0 outside it (`*_mask`). A token the engine could not score (NaN) and a masked token
    contribute a difference of 0."""
    if mode not in MODES:
        raise ValueError(f"vllm_importance_sampling_mode must be one of {', '.join(MODES)}; got {mode!r}")
    diff = torch.nan_to_num((model_logps.detach() - sampling_logps) * mask, nan=0.0)
    if mode.startswith("sequence"):
        diff = diff.sum(dim=-1, keepdim=True)
    r = torch.exp(diff)
    if mode.endswith("truncate"):
        return torch.clamp(r, min=clip_min, max=clip_max)
    lo = -math.inf if clip_min is None else clip_min
    hi = math.inf if clip_max is None else clip_max
    return r.masked_fill((r < lo) | (r > hi), 0.0)


def log_stats(metrics: dict, gather, model_logps: torch.Tensor, sampling_logps: torch.Tensor, mask: torch.Tensor,
              r: torch.Tensor, mode: str) -> None:
    """TRL's sampling metrics for one micro-batch's loss rows: the |logprob difference| between model and engine
    (mean, max) over the scored tokens, and the correction factor (min, mean, max; per sequence in the sequence
    modes). `gather`: the accelerator's. TRL logs them once per generated batch; here once per micro-batch, and the
    logged value of each is the mean over the step's micro-batches (of their extremes, for min and max)."""
    keep = mask.bool()
    delta = (model_logps.detach() - sampling_logps).abs()
    delta = delta[keep & ~torch.isnan(delta)]
    zero = torch.zeros((), device=delta.device)
    flat = r.flatten() if mode.startswith("sequence") else r[keep]
    stats = {
        "sampling/sampling_logp_difference/mean": (delta.mean() if delta.numel() else zero, "mean"),
        "sampling/sampling_logp_difference/max": (delta.max() if delta.numel() else zero, "max"),
        "sampling/importance_sampling_ratio/min": (flat.min() if flat.numel() else zero, "min"),
        "sampling/importance_sampling_ratio/mean": (flat.mean() if flat.numel() else zero, "mean"),
        "sampling/importance_sampling_ratio/max": (flat.max() if flat.numel() else zero, "max"),
    }
    for key, (value, how) in stats.items():
        g = gather(value.detach().float().reshape(1))
        metrics[key].append(float(getattr(g, how)()))
