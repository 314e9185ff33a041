"""The loss forward of a GRPO micro-batch on the rows that carry a gradient only (`skip_zero_advantage_rows`).

A row whose advantage is exactly 0 (every row of a flat group: all its attempts scored alike; an infra failure) adds
exactly nothing to TRL's policy loss or its gradient when there is no KL term, no entropy bonus and no batch-wide
entropy mask: each of its per-token terms is a clipped ratio times 0. TRL still runs its forward and backward, and on
a CPU that is most of a step's training time: in the comparison's sweep, half the rows of half the steps belonged to a
flat group, and a step whose groups were all flat trained for 139 s to add a zero gradient.

`signal_rows` gives the micro-batch cut to its other rows, and the factor that turns the loss TRL computes on them
into the loss of the whole micro-batch: 1 for the loss types normalised by the whole batch's token count
(`dapo`, the default: `num_items_in_batch` is kept), kept rows / rows for those that average over rows (`grpo`,
`dr_grpo`), kept tokens / tokens for `bnpo`. The completion columns past the kept rows' last token are cut too
(right padding: causal attention, so the earlier tokens' logprobs do not change). The prompt columns are left as they
are: TRL's positions are the padded ones. When no row is kept, one is (the one with the fewest completion tokens;
its loss is 0, so is its gradient): the backward pass still runs through the model, as a distributed wrapper expects,
and every parameter gets its zero gradient, so the optimizer steps as it would have.

The loss, the gradient and so the update are TRL's up to float rounding (another batch size rounds a matmul
differently); the per-token metrics TRL logs from the loss (entropy, clip ratios) are then over the kept rows.
tests/test_grpo.py trains the same step both ways.
"""

from __future__ import annotations

import torch

# the loss types whose value on the kept rows is a known multiple of the whole micro-batch's
LOSS_TYPES = ("dapo", "grpo", "dr_grpo", "bnpo")
# the keys of a text-only micro-batch (GRPOTrainer._generate_and_score_completions); any other: left to TRL
ROW_KEYS = ("prompt_ids", "prompt_mask", "completion_ids", "completion_mask", "advantages", "old_per_token_logps",
            "importance_sampling_ratio", "sampling_per_token_logps", "ref_per_token_logps", "tool_mask")
COMPLETION_KEYS = ("completion_ids", "completion_mask", "old_per_token_logps", "importance_sampling_ratio",
                   "sampling_per_token_logps", "ref_per_token_logps", "tool_mask")


def signal_rows(inputs: dict, loss_type: str) -> tuple[dict, float, int] | None:
    """(the micro-batch on its rows with a nonzero advantage, the loss factor, rows kept), or None when every row is
    kept or the batch is not one this applies to (the caller then runs TRL's loss on the whole batch). The caller
    checks the trainer's side: no KL (`beta` 0), no entropy bonus, no entropy mask, no auxiliary loss."""
    if loss_type not in LOSS_TYPES or set(inputs) - set(ROW_KEYS) - {"num_items_in_batch"}:
        return None
    adv = inputs["advantages"]
    if adv.dim() != 1:
        return None
    B = adv.size(0)
    keep = adv != 0  # NaN is kept
    n = int(keep.sum())
    if n == B:
        return None
    mask = inputs["completion_mask"]
    if "tool_mask" in inputs:
        mask = mask * inputs["tool_mask"]
    if n == 0:
        keep = torch.zeros_like(keep)
        keep[int(torch.argmin(inputs["completion_mask"].sum(1)))] = True
    width = inputs["completion_ids"].size(1)
    used = inputs["completion_mask"][keep].sum(0).nonzero()
    cols = int(used.max()) + 1 if used.numel() else 1
    out = {}
    for k, v in inputs.items():
        if k == "num_items_in_batch":
            out[k] = v
            continue
        v = v[keep]
        if k in COMPLETION_KEYS and v.dim() == 2 and v.size(1) == width:
            v = v[:, :cols]
        out[k] = v
    kept = int(keep.sum())
    if loss_type == "dapo":
        factor = 1.0
    elif loss_type == "bnpo":
        total = float(mask.sum().clamp(min=1.0))
        factor = float(mask[keep].sum().clamp(min=1.0)) / total
    else:  # grpo, dr_grpo: a mean over rows
        factor = kept / B
    return out, factor, kept
