"""Rows packed into one sequence, attention kept within each row: SFT's matrix products over a whole micro-batch at
once, without padding and without one row attending to another.

TRL's `padding_free: true` concatenates a micro-batch's rows into one sequence, restarts `position_ids` at each row
and passes the rows' boundaries (`cu_seq_lens_q`) to the model. On CUDA the flash-attention kernels take those
boundaries; on a CPU transformers' `sdpa` and `eager` paths find the rows from `position_ids` and build a dense
block-diagonal mask over the whole packed sequence: correct, but the score matrix grows with the square of the packed
length (8 rows: about 8x the attention work of the rows one at a time) and the mask stops torch's causal kernel from
skipping the upper triangle. `varlen_sdpa` runs transformers' own `sdpa` function once per row, causal, with no mask:
each row's attention is exactly what it is when the row is alone, and everything else (projections, MLPs, the LM head)
runs over the packed sequence in one product. (Called outside a trainer with the model's cache on, transformers skips
finding the rows and plain `sdpa` lets them attend to each other; the trainer turns the cache off.)
"""

from __future__ import annotations

import torch

NAME = "reterm_varlen_sdpa"


def varlen_sdpa(module, query, key, value, attention_mask, dropout: float = 0.0, scaling: float | None = None,
                is_causal: bool | None = None, **kwargs):
    """transformers' attention-function signature: query (batch, heads, length, dim), key/value (batch, kv heads,
    length, dim); returns (batch, length, heads, dim) and no weights. With `cu_seq_lens_q` (a packed batch of one
    sequence) each row [start, end) attends causally to itself only; without it this is transformers' `sdpa`."""
    from transformers.integrations.sdpa_attention import sdpa_attention_forward

    bounds = kwargs.pop("cu_seq_lens_q", None)
    kwargs.pop("cu_seq_lens_k", None)
    if bounds is None or query.shape[0] != 1 or attention_mask is not None:
        if query.shape[0] > 1 and attention_mask is None:  # no mask function is registered for this attention
            raise ValueError(f"{NAME} runs one packed sequence (or a single row); a batch of {query.shape[0]} rows "
                             f"would lose its padding mask: use attn_implementation sdpa for padded batches")
        return sdpa_attention_forward(module, query, key, value, attention_mask, dropout=dropout, scaling=scaling,
                                      is_causal=is_causal, **kwargs)
    bounds = [int(b) for b in bounds.tolist()]
    if bounds[0] != 0 or bounds[-1] != query.shape[2]:
        raise ValueError(f"cu_seq_lens_q {bounds} does not span the packed sequence of {query.shape[2]} tokens")
    outs = []
    for start, end in zip(bounds, bounds[1:]):
        out, _ = sdpa_attention_forward(module, query[:, :, start:end], key[:, :, start:end],
                                        value[:, :, start:end], None, dropout=dropout, scaling=scaling,
                                        is_causal=True)
        outs.append(out)
    return torch.cat(outs, dim=1), None


def register() -> str:
    """Makes `attn_implementation: reterm_varlen_sdpa` loadable (idempotent); returns the name. No mask function is
    registered with it, so transformers builds no mask for it (none is needed: rows are causal and unpadded)."""
    from transformers import AttentionInterface

    AttentionInterface.register(NAME, varlen_sdpa)
    return NAME


def attention_for_packed_rows(attn_implementation: str | None) -> str:
    """The attention a recipe that packs rows loads: `sdpa` (or unset) becomes `varlen_sdpa`, the same attention
    without the packed sequence's dense mask; any other (eager's mask, the flash kernels' boundaries) is kept."""
    if attn_implementation in (None, "", "sdpa", NAME):
        return register()
    return attn_implementation
