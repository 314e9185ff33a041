"""The loss forward with each group's shared prompt run once (reterm/training/shared_prefix.py) against TRL's own
method (`GRPOTrainer._get_per_token_logps_and_entropies`, called unbound on the same model): same logprobs, entropies
and gradients, on a tiny random Llama with TRL's fused head, ragged prompts (left padding) and completions (right
padding), a row whose prompt no other row shares, with and without gradient checkpointing; the trainer's step with
the forward on and off is in test_grpo.py."""

from __future__ import annotations

import types
from contextlib import nullcontext

import pytest
import torch
from trl import GRPOTrainer
from trl.trainer.utils import add_fused_lm_head

from reterm.training.shared_prefix import full_attention_only, length_chunks, shared_prefix_logps, shared_prompt_groups

PAD = 0


def fused_model(tiny_model_dir, temperature=0.7):
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(tiny_model_dir, dtype=torch.float32)
    add_fused_lm_head(model, temperature=temperature, outputs=("log_probs", "entropy"))
    return model.train()


def trl_forward(model, ids, mask, keep, compute_entropy=True, batch_size=None):
    fake = types.SimpleNamespace(accelerator=types.SimpleNamespace(autocast=nullcontext, is_main_process=True))
    lp, ent, _ = GRPOTrainer._get_per_token_logps_and_entropies(fake, model, ids, mask, keep, batch_size=batch_size,
                                                                 compute_entropy=compute_entropy)
    return lp, ent


def make_batch(groups, keep, vocab, seed=0):
    """`groups`: (prompt length, [completion lengths]) each; the prompts left-padded to the longest, completions
    right-padded to `keep`. Returns ids and mask as TRL's _compute_loss builds them (prompt ++ completion)."""
    g = torch.Generator().manual_seed(seed)
    P = max(p for p, _ in groups)
    ids, mask = [], []
    for plen, comps in groups:
        prompt = torch.randint(1, vocab, (plen,), generator=g)
        for clen in comps:
            comp = torch.randint(1, vocab, (clen,), generator=g)
            ids.append(torch.cat([torch.full((P - plen,), PAD), prompt, comp, torch.full((keep - clen,), PAD)]))
            mask.append(torch.cat([torch.zeros(P - plen), torch.ones(plen + clen), torch.zeros(keep - clen)]))
    return torch.stack(ids), torch.stack(mask).long()


def test_groups_are_rows_with_identical_prompt_ids_and_mask_wherever_they_are():
    ids, mask = make_batch([(5, [2, 3]), (7, [1]), (5, [3, 3, 1])], keep=4, vocab=50)
    assert shared_prompt_groups(ids, mask, ids.size(1) - 4) == [[0, 1], [2], [3, 4, 5]]
    mask2 = mask.clone()
    mask2[1, 0] = 1  # the same ids, another mask: not the same prompt
    assert shared_prompt_groups(ids, mask2, ids.size(1) - 4) == [[0], [1], [2], [3, 4, 5]]
    perm = torch.tensor([3, 0, 2, 4, 1, 5])  # TRL shuffles a step's rows before the loss forward
    assert shared_prompt_groups(ids[perm], mask[perm], ids.size(1) - 4) == [[0, 3, 5], [1, 4], [2]]


def test_length_chunks_keep_padding_within_the_slack_and_the_budget():
    # longest first; a row joins while rows x the chunk's longest <= 1.25 x the chunk's real tokens
    assert length_chunks([10, 6, 2, 8]) == [[0, 3, 1], [2]]
    assert length_chunks([5, 5, 5, 5]) == [[0, 1, 2, 3]]  # equal rows: one chunk, no padding
    assert length_chunks([10, 6, 2, 8], budget=20) == [[0, 3], [1], [2]]
    assert length_chunks([30], budget=20) == [[0]]  # a row longer than the budget is a chunk alone
    widths = [519, 120, 150, 90, 190, 160, 60, 100]  # a plain GRPO step's completions in the comparison
    chunks = length_chunks(widths)
    assert sorted(i for c in chunks for i in c) == list(range(8))
    padded = sum(len(c) * widths[c[0]] for c in chunks)
    assert padded <= 1.25 * sum(widths) < len(widths) * max(widths)


@pytest.mark.parametrize("batch_size,checkpointing", [(None, False), (2, False), (None, True)])
def test_same_logprobs_entropies_and_gradient_as_trl(tiny_model_dir, batch_size, checkpointing):
    """Under gradient checkpointing (TRL's default) both sides checkpoint: TRL's per layer, ours per forward."""
    keep = 9
    model = fused_model(tiny_model_dir)
    if checkpointing:
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    vocab = model.config.vocab_size
    # group of 4 with the longest prompt, a row alone, a group of 3 with a shorter (left-padded) prompt
    ids, mask = make_batch([(40, [9, 5, 1, 7]), (23, [6]), (31, [9, 2, 8])], keep, vocab)
    # shuffled, as TRL's loss forward gets them: the groups' rows apart (the group of 3 at 0, 4, 6; of 4 at 1, 3, 5, 7)
    perm = torch.tensor([5, 0, 4, 1, 6, 2, 7, 3])
    ids, mask = ids[perm], mask[perm]
    completion_mask = mask[:, -keep:].float()
    weights = torch.randn(ids.size(0), keep, generator=torch.Generator().manual_seed(1))

    def run(fn):
        model.zero_grad()
        lp, ent = fn()
        ((lp * weights + 0.1 * ent) * completion_mask).sum().backward()
        return lp.detach(), ent.detach(), {n: p.grad.clone() for n, p in model.named_parameters()}

    calls = []

    def full(i, m):
        calls.append(i.size(0))
        return trl_forward(model, i, m, keep)

    ref = run(lambda: trl_forward(model, ids, mask, keep, batch_size=batch_size))
    # the completions run in chunks of rows of similar length, each cut to its longest (the group of 4: rows 0, 3, 1
    # at 10 columns, row 2 at 2), under checkpointing within 20 tokens (10 + 8; 6; 2): reordered, cut and padded back
    ours = run(lambda: shared_prefix_logps(model, ids, mask, keep, True, nullcontext, full, batch_size, checkpointing,
                                           checkpoint_tokens=20))
    # only the row whose prompt no other row shares went through TRL's forward (with batch_size 2, TRL's chunks of
    # rows, the third row of the group of 3 too)
    assert calls == ([1] if batch_size is None else [1, 1])
    m = completion_mask.bool()
    assert torch.allclose(ours[0][m], ref[0][m], atol=1e-5), (ours[0] - ref[0]).abs().max()
    assert torch.allclose(ours[1][m], ref[1][m], atol=1e-5), (ours[1] - ref[1]).abs().max()
    assert torch.equal(ours[0][~m], ref[0][~m])  # padding scores 0 in both
    for n, g in ref[2].items():
        assert torch.allclose(ours[2][n], g, atol=1e-5, rtol=1e-4), (n, (ours[2][n] - g).abs().max())
    assert any(g.abs().sum() > 0 for g in ours[2].values())


def test_a_micro_batch_within_the_activation_budget_is_not_recomputed_and_scores_the_same(tiny_model_dir):
    """`keep_activations_bytes`: under checkpointing, a micro-batch whose estimated activations fit keeps them (each
    layer runs once per forward), one over the budget is recomputed in the backward (each layer runs again); the
    logprobs and gradients are the same either way."""
    from reterm.training.shared_prefix import activation_bytes

    keep = 9
    model = fused_model(tiny_model_dir)
    model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
    ids, mask = make_batch([(40, [9, 5, 1, 7]), (31, [9, 2, 8])], keep, model.config.vocab_size)
    tokens = 40 + 22 + 31 + 19  # each group's prompt once, and every row's completion
    runs = []
    model.model.layers[0].register_forward_hook(lambda *_: runs.append(1))

    def run(budget):
        model.zero_grad()
        runs.clear()
        lp, ent = shared_prefix_logps(model, ids, mask, keep, True, nullcontext, None, None, True,
                                      keep_activations_bytes=budget)
        (lp.sum() + 0.1 * ent.sum()).backward()
        return runs.count(1), lp.detach(), {n: p.grad.clone() for n, p in model.named_parameters()}

    kept = run(tokens * activation_bytes(model))
    recomputed = run(tokens * activation_bytes(model) - 1)
    # each group's prompt, then its completions in chunks of similar length: each forward once, or twice when recomputed
    assert kept[0] >= 4 and recomputed[0] == 2 * kept[0], (kept[0], recomputed[0])
    assert torch.allclose(kept[1], recomputed[1], atol=1e-6)
    for n, g in recomputed[2].items():
        assert torch.allclose(kept[2][n], g, atol=1e-6, rtol=1e-5), n


def test_no_shared_prompt_leaves_it_to_trl(tiny_model_dir):
    model = fused_model(tiny_model_dir)
    ids, mask = make_batch([(12, [3]), (10, [4])], 4, model.config.vocab_size)
    assert shared_prefix_logps(model, ids, mask, 4, True, nullcontext, lambda i, m: None) is None


def test_models_with_sliding_window_layers_are_left_to_trl(tiny_model):
    from transformers import MistralConfig, Qwen2Config

    assert full_attention_only(tiny_model)  # Llama: every layer attends to the whole context
    small = dict(hidden_size=16, intermediate_size=32, num_hidden_layers=2, num_attention_heads=2, vocab_size=64)
    as_model = lambda cfg: types.SimpleNamespace(config=cfg)  # noqa: E731
    assert full_attention_only(as_model(Qwen2Config(**small)))  # sliding window configured but off
    assert not full_attention_only(as_model(Qwen2Config(**small, use_sliding_window=True, max_window_layers=0)))
    assert not full_attention_only(as_model(MistralConfig(**small, sliding_window=8)))
