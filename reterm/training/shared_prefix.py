"""The training forward of a GRPO batch with each group's shared prompt run once (`shared_prefix_forward`).

A group's G rows share their prompt: in ReTerm-GRPO it is the failure state's history (system prompt, instruction,
the scout's turns and observations: hundreds of tokens), in plain GRPO the task start. TRL's loss forward runs every
row's whole sequence, so a group's prompt is encoded G times, and on a CPU (no Triton) its fused head also projects
every prompt position onto the vocabulary only to throw the result away. Here the rows with identical prompt ids and
mask (wherever they are in the batch: TRL shuffles a step's rows before the loss) are computed together as:

1. the prompt minus its last token, once, at batch 1, keeping its key/value states (with their autograd graph);
2. those states repeated, and the last prompt token plus the completions fed on top of them, through the same fused
   head TRL uses, with TRL's positions (the batch's padded positions, 0..L-1) and mask; the completions in chunks of
   rows of similar length, each chunk cut to its own longest row (`length_chunks`: padded tokens within 1.25x the
   real ones), where TRL runs every row to the batch's longest completion. Right padding changes nothing before it
   (causal attention), and the columns cut off score 0, as TRL's padding does.

Every row then attends to exactly the keys and values TRL's forward gives it, computed by the same weights, so the
per-token logprobs and entropies are the same up to float rounding (summation order), and so is the gradient:
autograd sums the G rows' gradients through the repeat back into the one prompt forward (tests/test_shared_prefix.py
compares both with TRL's own method). What it saves per group: (G - 1) prompt forwards and backwards, the head
over every prompt position, and the backbone over the padding after each completion (in the comparison's plain GRPO
steps the longest of 8 completions was often twice the mean).

Under gradient checkpointing (TRL's default) the model's layers would drop the key/value states, so each of the two
forwards is checkpointed whole instead (the layers' own checkpointing off inside): between them only the prompt's
key/value states are kept, and each forward is recomputed in the backward pass on its own: the prompt at batch 1, the
completions in chunks of at most 2,048 tokens (`checkpoint_tokens`). The backward pass's transient peak is then one
such forward's activations, where TRL's per-layer checkpointing holds one layer's.

Where it does not apply, TRL's forward runs unchanged: a model wrapped for several processes (DDP, DeepSpeed, FSDP:
their hooks expect one forward per backward), models with sliding-window layers, multimodal or MoE auxiliary inputs,
and batches in which no two rows share a prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, contextmanager

import torch
import torch.nn.functional as F
from torch.utils.checkpoint import checkpoint as torch_checkpoint
from transformers import DynamicCache

Forward = Callable[[torch.Tensor, torch.Tensor], tuple[torch.Tensor, torch.Tensor | None]]


def full_attention_only(model) -> bool:
    """Whether every layer attends to the whole context: a sliding-window layer's cache keeps only its window, so a
    prompt's states could not be carried over whole."""
    cfg = model.config.get_text_config()
    layer_types = getattr(cfg, "layer_types", None)
    if layer_types is not None:
        return all(t == "full_attention" for t in layer_types)
    return getattr(cfg, "sliding_window", None) is None or getattr(cfg, "use_sliding_window", True) is False


def activation_bytes(model) -> int:
    """An upper estimate of the activations a token keeps for the backward in a forward without checkpointing: per
    layer 8 vectors of the hidden size and 4 of the MLP's, at the weights' element size (SmolLM2-135M in float32: 1.29
    MB a token, where 0.93 was measured: benchmarks/loss_forward.py with and without checkpointing)."""
    cfg = model.config.get_text_config()
    hidden = cfg.hidden_size
    mlp = getattr(cfg, "intermediate_size", None) or 4 * hidden
    return cfg.num_hidden_layers * (8 * hidden + 4 * mlp) * next(model.parameters()).element_size()


def shared_prompt_groups(input_ids: torch.Tensor, attention_mask: torch.Tensor, prompt_len: int) -> list[list[int]]:
    """The rows (indices) of each distinct prompt, in order of first appearance: rows whose first `prompt_len` ids and
    mask are identical, wherever they are in the batch. TRL shuffles a step's rows before its loss forward
    (`shuffle_sequence_dict` in `_prepare_inputs`), so a group's rows are seldom next to each other there."""
    groups: dict[tuple[bytes, bytes], list[int]] = {}
    ids, mask = input_ids[:, :prompt_len].cpu(), attention_mask[:, :prompt_len].cpu()
    for i in range(ids.size(0)):
        groups.setdefault((ids[i].numpy().tobytes(), mask[i].numpy().tobytes()), []).append(i)
    return list(groups.values())


def shared_prefix_logps(model, input_ids: torch.Tensor, attention_mask: torch.Tensor, logits_to_keep: int,
                        compute_entropy: bool, autocast: Callable[[], AbstractContextManager],
                        full_forward: Forward, batch_size: int | None = None, checkpoint: bool = False,
                        checkpoint_tokens: int = 2048, trim: bool = True, keep_activations_bytes: float = 0
                        ) -> tuple[torch.Tensor, torch.Tensor | None] | None:
    """Per-token logprobs (and entropies) of the last `logits_to_keep` positions of every row, TRL's output, with
    the rows sharing a prompt (wherever they are in the batch) computed together as the module docstring says (at most
    `batch_size` rows at once, as TRL chunks) and put back in their places; rows with a prompt of their own go through
    `full_forward(ids, mask)` (TRL's method on those rows).
    `model` must carry TRL's fused head (`fused_lm_head=True`). None when no two rows share a prompt (the caller then
    runs TRL's forward on all). `checkpoint`: the model trains with gradient checkpointing (see `_one_prompt`;
    `checkpoint_tokens` bounds each recomputed forward of completions). `trim`: a group's completions run in chunks of
    rows of similar length, each cut to its own longest (`length_chunks`), not all at the batch's padded width.
    `keep_activations_bytes`: under `checkpoint`, a micro-batch whose activations are estimated at most this many bytes
    (`activation_bytes`) keeps them for the backward instead of recomputing its forwards (the same result)."""
    L = input_ids.size(1)
    P = L - logits_to_keep  # the prompt's columns, left-padded to the batch's longest prompt
    if P < 2:
        return None
    groups = shared_prompt_groups(input_ids, attention_mask, P)
    if all(len(g) == 1 for g in groups):
        return None
    step = batch_size or input_ids.size(0)
    parts = [g[a:a + step] for g in groups for a in range(0, len(g), step)]
    if checkpoint and keep_activations_bytes:
        tokens = sum(int(attention_mask[rows[0], :P].sum()) + int(attention_mask[rows, P:].sum()) for rows in parts)
        checkpoint = tokens * activation_bytes(model) > keep_activations_bytes
    logps, entropies = [], []
    for rows in parts:
        index = torch.tensor(rows, device=input_ids.device)
        ids, mask = input_ids[index], attention_mask[index]
        if len(rows) == 1:
            lp, ent = full_forward(ids, mask)
        else:
            lp, ent = _one_prompt(model, ids, mask, P, autocast, checkpoint, checkpoint_tokens, trim)
        logps.append(lp)
        entropies.append(ent)
    order = torch.tensor([i for rows in parts for i in rows], device=input_ids.device).argsort()  # back in place
    return torch.cat(logps)[order], (torch.cat(entropies)[order] if compute_entropy else None)


def _one_prompt(model, ids: torch.Tensor, mask: torch.Tensor, P: int, autocast, checkpoint: bool,
                checkpoint_tokens: int, trim: bool = True):
    G, L = ids.shape
    prefix_ids, prefix_mask = ids[:1, :P - 1], mask[:1, :P - 1]
    tail = ids[:, P - 1:]  # the prompt's last token scores the first completion token
    labels = tail.masked_fill(mask[:, P - 1:] == 0, -100)
    labels[:, 0] = -100  # (shifted away by the head: position 0 is the prompt's)
    positions = torch.arange(P - 1, L, device=ids.device).unsqueeze(0)  # TRL's: the padded positions
    K = L - P  # the completion columns: logits_to_keep

    def prefix_states():
        with _layer_checkpointing_off(model), autocast():
            out = model(input_ids=prefix_ids, attention_mask=prefix_mask, use_cache=True, logits_to_keep=1)
        return tuple(t for layer in out.cache.layers for t in (layer.keys, layer.values))

    def scored(rows: torch.Tensor, width: int):
        def run(*states):
            n = rows.numel()
            cache = DynamicCache()
            for i in range(0, len(states), 2):  # the graph runs back through the repeat: the rows' gradients add up
                cache.update(states[i].repeat_interleave(n, 0), states[i + 1].repeat_interleave(n, 0), i // 2)
            with _layer_checkpointing_off(model), autocast():
                out = model(input_ids=tail[rows, :width], attention_mask=mask[rows, :P - 1 + width],
                            position_ids=positions[:, :width], cache=cache, labels=labels[rows, :width],
                            fused_lm_head=True)
            pad = (0, K - (width - 1))  # the columns past the chunk's longest row score 0, as in TRL's forward
            ent = None if out.entropy is None else F.pad(out.entropy, pad)
            return F.pad(out.log_probs, pad), ent
        return run

    # the tail columns each row uses: up to its last real token (right padding after it changes nothing before it)
    used = mask[:, P - 1:].flip(1).cumsum(1).flip(1).gt(0).sum(1).clamp(min=2).tolist()
    budget = checkpoint_tokens if checkpoint else None
    chunks = length_chunks(used, budget) if trim else _even_chunks(G, L - P + 1, budget)
    states = torch_checkpoint(prefix_states, use_reentrant=False) if checkpoint else prefix_states()
    # Under gradient checkpointing the model's layers drop a cache (their replay would write it twice), so the
    # forwards are checkpointed whole instead: only the prompt's key/value states are kept between them, and each is
    # recomputed in the backward pass on its own: the prompt at batch 1, then the completions in chunks of at most
    # `checkpoint_tokens` tokens, which bounds the backward pass's transient activations.
    parts = []
    for chunk in chunks:
        rows = torch.tensor(chunk, device=ids.device)
        fn = scored(rows, max(used[i] for i in chunk) if trim else L - P + 1)
        parts.append(torch_checkpoint(fn, *states, use_reentrant=False) if checkpoint else fn(*states))
    order = torch.tensor([i for chunk in chunks for i in chunk], device=ids.device).argsort()
    logps = torch.cat([lp for lp, _ in parts])[order]
    entropy = None if parts[0][1] is None else torch.cat([e for _, e in parts])[order]
    return logps, entropy


def length_chunks(widths: list[int], budget: int | None = None, slack: float = 1.25) -> list[list[int]]:
    """The rows (indices into `widths`, each row's tail columns) in chunks run together: sorted longest first, a row
    joins the current chunk while the chunk's padded tokens (rows x its longest) stay within `slack` times its real
    ones, and within `budget` tokens when one is given; a chunk has at least one row."""
    order = sorted(range(len(widths)), key=lambda i: -widths[i])
    chunks: list[list[int]] = []
    for i in order:
        if chunks:
            c = chunks[-1]
            w = widths[c[0]]  # the chunk's longest: its first
            padded = (len(c) + 1) * w
            if padded <= slack * (sum(widths[j] for j in c) + widths[i]) and (budget is None or padded <= budget):
                c.append(i)
                continue
        chunks.append([i])
    return chunks


def _even_chunks(G: int, width: int, budget: int | None) -> list[list[int]]:
    """The rows in order, at the batch's padded width: all at once, or as many as `budget` tokens hold."""
    step = G if budget is None else max(1, budget // width)
    return [list(range(a, min(a + step, G))) for a in range(0, G, step)]


@contextmanager
def _layer_checkpointing_off(model):
    """The model's gradient checkpointing off for the block (and for its replay, which runs it again): its layers'
    flags, and the backbone's, which would turn `use_cache` off."""
    layers = [m for m in model.modules() if getattr(m, "gradient_checkpointing", False) is True]
    for m in layers:
        m.gradient_checkpointing = False
    try:
        yield
    finally:
        for m in layers:
            m.gradient_checkpointing = True
