"""The sampling contract GRPO's loss assumes (TRL computes `log_softmax(logits / temperature)` of the full
vocabulary): the local policy samples with no top-k cut unless one is set, and records the logprobs of the
temperature-scaled distribution it sampled from. Tiny random model, nothing mocked."""

from __future__ import annotations

import torch

from reterm.agent.policy import SamplingConfig, TransformersPolicy

PROMPT = [1, 2, 3, 4, 5]


def _sample(model, tokenizer, temperature, top_k=0, n=4):
    torch.manual_seed(0)
    pol = TransformersPolicy("tiny", SamplingConfig(max_new_tokens=16, temperature=temperature, top_k=top_k),
                             model=model, tokenizer=tokenizer)
    try:
        return [pol.generate_many([PROMPT])[0] for _ in range(n)]
    finally:
        pol.close()


def _logits(model, ids):
    with torch.no_grad():
        return model(torch.tensor([PROMPT + ids])).logits[0, len(PROMPT) - 1:-1].float()


def test_logprobs_are_those_of_the_temperature_scaled_distribution(tiny_model, tokenizer):
    for gen in _sample(tiny_model, tokenizer, temperature=0.5, n=2):
        logits = _logits(tiny_model, gen.token_ids)
        want = torch.log_softmax(logits / 0.5, -1).gather(-1, torch.tensor(gen.token_ids).unsqueeze(-1)).squeeze(-1)
        assert torch.allclose(torch.tensor(gen.logprobs), want, atol=1e-4)


def test_no_top_k_cut_unless_one_is_set(tiny_model, tokenizer):
    """A random model is nearly uniform over ~49k tokens: sampling the full vocabulary almost never stays in the
    top 50 for 64 tokens running; with top_k=50 it always does (the cut transformers applies when none is given)."""
    def ranks(gens):
        out = []
        for g in gens:
            logits = _logits(tiny_model, g.token_ids)
            out += [int((row > row[t]).sum()) for row, t in zip(logits, g.token_ids)]
        return out

    assert max(ranks(_sample(tiny_model, tokenizer, temperature=1.0))) >= 50
    assert max(ranks(_sample(tiny_model, tokenizer, temperature=1.0, top_k=50))) < 50
