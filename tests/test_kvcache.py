"""Key/value states kept between turns (reterm/agent/kvcache.py): the cached path must give exactly what the uncached
one gives — the same token ids (greedy, and sampled under one seed) and logprobs equal to float rounding — over
batched, ragged, multi-turn conversations, whatever is evicted.

Each test compares two `TransformersPolicy` objects on the same model and dtype: `kv_cache_tokens=0` (every turn is
`model.generate` on the whole left-padded prompts) and the cached one. Fast tests use the tiny random Llama from
conftest in float32; the slow ones SmolLM2 in float32 and, where this CPU has native bf16, in bf16.
"""

from __future__ import annotations

import math

import pytest
import torch

from conftest import original_training_families
from reterm import suites
from reterm.agent.formats import make_format
from reterm.agent.kvcache import PrefixCache, supports_prefix_cache
from reterm.agent.policy import SamplingConfig, TransformersPolicy

OBSERVATIONS = ["$ ls\nREADME.md  data.csv  src\n[exit 0]",
                "$ python3 src/main.py\nTraceback (most recent call last):\n"
                "  File \"src/main.py\", line 3\nNameError: name 'x' is not defined\n[exit 1]",
                "$ cat data.csv\na,b\n1,2\n[exit 0]", "bash: pytest: command not found\n[exit 127]"]


def conversations(tokenizer, n: int) -> list[list[dict]]:
    """`n` agent conversations of different lengths, as run_episode starts them (system prompt + a task)."""
    fmt = make_format("simple")
    original = original_training_families()
    tasks = [t for t in suites.load("basic", "train") if t.family in original][:n]
    return [[{"role": "system", "content": fmt.system_prompt()},
             {"role": "user", "content": f"Task:\n{t.instruction.strip()}" + " Be brief." * i}]
            for i, t in enumerate(tasks)]


def next_prompts(tokenizer, prompts, gens, turn: int) -> list[list[int]]:
    """Each prompt + its sampled reply + an observation and the generation prompt, as run_episode extends ids."""
    out = []
    for i, (p, g) in enumerate(zip(prompts, gens)):
        obs = tokenizer.apply_chat_template([{"role": "user", "content": OBSERVATIONS[(i + turn) % 4]}],
                                            add_generation_prompt=True, tokenize=False)
        out.append(p + g.token_ids + tokenizer.encode("\n" + obs, add_special_tokens=False))
    return out


def run_turns(policy, tokenizer, n: int, turns: int, seed: int = 0):
    """Turn-by-turn batched generation over `n` ragged conversations; the ids and logprobs of every turn."""
    prompts = [policy.render_prompt(m) for m in conversations(tokenizer, n)]
    history = []
    for turn in range(turns):
        torch.manual_seed(seed + turn)
        gens = policy.generate_many(prompts)
        history.append(([g.token_ids for g in gens], [g.logprobs for g in gens], [list(p) for p in prompts]))
        prompts = next_prompts(tokenizer, prompts, gens, turn)
    return history


def assert_same(uncached, cached, atol: float):
    for turn, ((ids_u, lp_u, p_u), (ids_c, lp_c, p_c)) in enumerate(zip(uncached, cached)):
        assert p_u == p_c, f"turn {turn}: the prompts diverged"
        assert ids_u == ids_c, f"turn {turn}: cached token ids differ from uncached"
        for a, b in zip(lp_u, lp_c):
            assert torch.allclose(torch.tensor(a), torch.tensor(b), atol=atol, rtol=0), f"turn {turn}: logprobs"


@pytest.fixture
def pair(tiny_model, tokenizer):
    def make(temperature=0.0, top_p=1.0, max_new_tokens=10, **kw):
        s = SamplingConfig(max_new_tokens=max_new_tokens, temperature=temperature, top_p=top_p)
        made = [TransformersPolicy("tiny", s, model=tiny_model, tokenizer=tokenizer, kv_cache_tokens=0),
                TransformersPolicy("tiny", s, model=tiny_model, tokenizer=tokenizer, **kw)]
        policies.extend(made)
        return made

    policies: list[TransformersPolicy] = []
    yield make
    for p in policies:
        p.close()


def test_greedy_cached_matches_uncached_over_ragged_batched_turns(pair, tokenizer):
    uncached, cached = pair()
    assert uncached.prefix_cache is None and cached.prefix_cache is not None
    want = run_turns(uncached, tokenizer, 4, 3)
    got = run_turns(cached, tokenizer, 4, 3)
    assert_same(want, got, atol=1e-4)
    stats = cached.prefix_cache.stats
    last_prompts = got[-1][2]
    assert stats["reused_tokens"] > 0
    # after the first turn only the new tokens are prefilled: far fewer than the prompts re-encoded uncached
    assert stats["prefilled_tokens"] < sum(len(p) for _, _, ps in got for p in ps) / 2
    assert len(cached.prefix_cache.entries) == len(last_prompts)


def test_sampling_under_a_seed_matches_uncached(pair, tokenizer):
    uncached, cached = pair(temperature=0.7, top_p=0.9)
    assert_same(run_turns(uncached, tokenizer, 3, 2, seed=5), run_turns(cached, tokenizer, 3, 2, seed=5), atol=1e-4)


def test_identical_prompts_are_prefilled_once(pair, tokenizer):
    """The G forks of one failure state share their prompt: it is encoded once for the group."""
    uncached, cached = pair(temperature=1.0)
    prompt = cached.render_prompt(conversations(tokenizer, 1)[0])
    torch.manual_seed(3)
    want = uncached.generate_many([prompt] * 4)
    torch.manual_seed(3)
    got = cached.generate_many([prompt] * 4)
    assert [g.token_ids for g in got] == [g.token_ids for g in want]
    assert cached.prefix_cache.stats["prefilled_tokens"] == len(prompt)
    assert len({tuple(g.token_ids) for g in got}) > 1, "the forks must still sample independently"


def test_a_cap_below_one_conversation_evicts_and_stays_exact(pair, tokenizer):
    uncached, cached = pair(kv_cache_tokens=64)
    want = run_turns(uncached, tokenizer, 3, 2)
    got = run_turns(cached, tokenizer, 3, 2)
    assert_same(want, got, atol=1e-4)
    assert cached.prefix_cache.tokens <= 64
    assert cached.prefix_cache.stats["evicted_tokens"] > 0


def test_finished_conversations_are_released(pair, tokenizer):
    _, cached = pair()
    prompts = [cached.render_prompt(m) for m in conversations(tokenizer, 3)]
    gens = cached.generate_many(prompts)
    later = next_prompts(tokenizer, prompts, gens, 0)
    cached.release(later[0])  # ended after an observation: the stored state is a prefix of its ids
    cached.release(prompts[1])  # ended on its reply: its ids are a prefix of the stored state
    assert [e.ids[: len(prompts[2])] for e in cached.prefix_cache.entries] == [prompts[2]]
    cached.close()
    assert cached.prefix_cache.entries == []


def test_lookup_takes_the_longest_shared_prefix():
    cache = PrefixCache(max_tokens=100)
    cache.store([1, 2, 3, 4], [])
    cache.store([1, 2, 9], [])
    assert cache.lookup([1, 2, 3, 7])[1] == 3
    assert cache.lookup([1, 2, 3, 4])[1] == 3, "the last prompt token is always fed, to get the next logits"
    assert cache.lookup([5, 6])[0] is None
    cache.store([1, 2, 3, 4, 5, 6], [])  # the next turn of [1, 2, 3, 4] replaces it
    assert sorted(e.ids for e in cache.entries) == [[1, 2, 3, 4, 5, 6], [1, 2, 9]]
    with pytest.raises(ValueError, match="max_tokens"):
        PrefixCache(max_tokens=0)


def test_models_with_sliding_windows_keep_the_uncached_path(tokenizer):
    from transformers import MistralConfig, MistralForCausalLM

    cfg = MistralConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                        num_attention_heads=4, num_key_value_heads=2, sliding_window=16,
                        eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.eos_token_id)
    model = MistralForCausalLM(cfg).eval()
    assert not supports_prefix_cache(model)
    policy = TransformersPolicy("tiny-sliding", SamplingConfig(max_new_tokens=4, temperature=0), model=model,
                                tokenizer=tokenizer)
    assert policy.prefix_cache is None
    assert len(policy.generate_many([[1, 2, 3]])[0].token_ids) >= 1
    policy.close()


# --- SmolLM2 --------------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def smollm2_models():
    from reterm.models import load_model_and_tokenizer

    loaded = {}

    def get(dtype):
        if dtype not in loaded:
            loaded[dtype] = load_model_and_tokenizer("smollm2-135m", dtype=dtype)
        return loaded[dtype]

    return get


def smollm2_policies(model, tok, max_new_tokens):
    s = SamplingConfig(max_new_tokens=max_new_tokens, temperature=0)
    return (TransformersPolicy("smollm2-135m", s, model=model, tokenizer=tok, kv_cache_tokens=0),
            TransformersPolicy("smollm2-135m", s, model=model, tokenizer=tok))


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_smollm2_cached_matches_uncached_greedy_batched_ragged(smollm2_models):
    """float32: four ragged conversations, batched, three turns of 32 greedy tokens: same ids, logprobs to 1e-3."""
    model, tok = smollm2_models(torch.float32)
    uncached, cached = smollm2_policies(model, tok, 32)
    try:
        want = run_turns(uncached, tok, 4, 3)
        got = run_turns(cached, tok, 4, 3)
    finally:
        uncached.close()
        cached.close()
    assert_same(want, got, atol=1e-3)
    assert len({len(p) for p in got[-1][2]}) > 1, "the batch must be ragged"


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_smollm2_bf16_cache_adds_no_error_of_its_own(smollm2_models):
    """bfloat16 (what `dtype=auto` picks on a CPU with native bf16): here even the uncached path is not batch-
    invariant — one prompt's logprobs move by ~0.1 between a batch of six and batch 1, enough to flip a greedy
    near-tie — so token-for-token equality is checked in float32 above. Nor is a cached prefill bit-equal to
    `model.generate` in bf16: which kernels run (AVX512-BF16 or AMX tiles) depends on the CPU and on the shapes, and
    each accumulates in its own order (on an AMX machine a first logprob moved by 0.015). What is checked here, on
    every CPU class: a cached prefill picks the same first token as `model.generate` for that prompt alone, and its
    logprob is no further from it than bf16 itself is from float32 on these prompts (twice the largest such gap,
    plus 1e-3): the cache adds no error of its own beyond bf16 rounding. Over the tokens both paths share, the
    cached logprobs stay within bf16 rounding of the uncached batch's."""
    if not any(d == "bfloat16" for d in smollm2_dtypes()):
        pytest.skip("this CPU has no native bf16")
    model, tok = smollm2_models(torch.bfloat16)
    uncached, cached = smollm2_policies(model, tok, 16)
    try:
        prompts = [cached.render_prompt(m) for m in conversations(tok, 6)]
        batched = uncached.generate_many(prompts)
        alone = [uncached.generate_many([p])[0] for p in prompts]
        got = cached.generate_many(prompts)
    finally:
        uncached.close()
        cached.close()
    model32, _ = smollm2_models(torch.float32)
    reference, _ = smollm2_policies(model32, tok, 1)
    try:
        exact = [reference.generate_many([p])[0] for p in prompts]
    finally:
        reference.close()
    rounding = max(abs(a.logprobs[0] - e.logprobs[0]) for a, e in zip(alone, exact) if a.token_ids[0] == e.token_ids[0])
    for a, g in zip(alone, got):
        assert abs(a.logprobs[0] - g.logprobs[0]) <= 2 * rounding + 1e-3, (a.logprobs[0], g.logprobs[0], rounding)
        # a different first token only at a near-tie, which bf16 rounding may flip: neither path was sure of it
        assert a.token_ids[0] == g.token_ids[0] or max(a.logprobs[0], g.logprobs[0]) < math.log(0.6), (a, g)
    for b, g in zip(batched, got):
        shared = next((i for i, (x, y) in enumerate(zip(b.token_ids, g.token_ids)) if x != y), len(g.token_ids))
        assert max((abs(x - y) for x, y in zip(b.logprobs[:shared], g.logprobs[:shared])), default=0) < 0.25


def smollm2_dtypes():
    from reterm.hardware import native_bf16

    return ["float32"] + (["bfloat16"] if native_bf16() else [])


def test_the_cache_size_comes_from_the_environment(tiny_model, tokenizer, monkeypatch):
    monkeypatch.setenv("RETERM_KV_CACHE_TOKENS", "0")
    off = TransformersPolicy("tiny", SamplingConfig(max_new_tokens=2), model=tiny_model, tokenizer=tokenizer)
    off.close()
    assert off.prefix_cache is None
    monkeypatch.setenv("RETERM_KV_CACHE_TOKENS", "lots")
    with pytest.raises(ValueError, match="RETERM_KV_CACHE_TOKENS"):
        TransformersPolicy("tiny", SamplingConfig(max_new_tokens=2), model=tiny_model, tokenizer=tokenizer)


def test_a_stopping_run_cuts_the_batch_short(pair, tokenizer):
    """When the run is told to stop (reterm.stopping.STOP, set by the first signal), a cached batch ends after the
    token it is on, like the uncached path's stopping criterion."""
    from reterm import stopping

    _, cached = pair(max_new_tokens=30)
    prompts = [cached.render_prompt(m) for m in conversations(tokenizer, 2)]
    stopping.STOP.set()
    try:
        gens = cached.generate_many(prompts)
    finally:
        stopping.STOP.clear()
    assert [len(g.token_ids) for g in gens] == [1, 1]


def test_the_preallocated_decode_layer_holds_what_concatenation_holds():
    """`_BufferLayer` (the decode's in-place buffer) against transformers' `DynamicLayer` (concatenation), through
    its planned room and past it (where it must grow, not overwrite or fail)."""
    from transformers.cache_utils import DynamicLayer

    from reterm.agent.kvcache import _BufferLayer

    gen = torch.Generator().manual_seed(0)
    k0, v0 = torch.randn(2, 3, 5, 4, generator=gen), torch.randn(2, 3, 5, 4, generator=gen)
    room = 3
    buffered = _BufferLayer(torch.cat([k0, torch.zeros(2, 3, room, 4)], 2),
                            torch.cat([v0, torch.zeros(2, 3, room, 4)], 2), 5)
    plain = DynamicLayer()
    plain.update(k0, v0)
    start = buffered._keys.data_ptr()
    for step in range(room + 4):  # 3 steps in the room, then one of 2 tokens and more past it
        n = 2 if step == room else 1
        k, v = torch.randn(2, 3, n, 4, generator=gen), torch.randn(2, 3, n, 4, generator=gen)
        got, want = buffered.update(k, v), plain.update(k, v)
        assert torch.equal(got[0], want[0]) and torch.equal(got[1], want[1])
        assert buffered.get_seq_length() == plain.get_seq_length()
        if step < room:
            assert buffered._keys.data_ptr() == start  # written in place, no copy of the cache


@pytest.mark.parametrize("temperature", [0.0, 0.8])
def test_finished_rows_leave_the_decode_batch_and_nothing_else_changes(tokenizer, temperature, monkeypatch):
    """Rows that finished are dropped from the decode batch (compaction); the live rows get the same tokens (greedy,
    and sampled under one seed), logprobs and stored states as when every row decodes to the end. A tiny random
    Llama with large initial weights, so that its replies vary with the context (conftest's repeats one token)."""
    from transformers import LlamaConfig, LlamaForCausalLM

    from reterm.agent import kvcache

    torch.manual_seed(0)
    model = LlamaForCausalLM(LlamaConfig(
        vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2, num_attention_heads=4,
        num_key_value_heads=2, max_position_embeddings=8192, tie_word_embeddings=True, initializer_range=0.5,
        bos_token_id=tokenizer.bos_token_id, eos_token_id=tokenizer.eos_token_id,
        pad_token_id=tokenizer.eos_token_id)).eval()

    kept = []
    keep_rows = kvcache._BufferLayer.keep_rows
    monkeypatch.setattr(kvcache._BufferLayer, "keep_rows", lambda self, rows: (kept.append(len(rows)),
                                                                              keep_rows(self, rows))[1])
    prompts = [tokenizer.apply_chat_template(m, add_generation_prompt=True, tokenize=False)
               for m in conversations(tokenizer, 6)]
    prompts = [tokenizer.encode(p, add_special_tokens=False) for p in prompts]
    assert len({len(p) for p in prompts}) > 1  # ragged

    def generate(compact, eos):
        torch.manual_seed(7)
        cache = PrefixCache()
        with torch.no_grad():
            out = kvcache.generate_cached(model, prompts, cache, 40, temperature, 1.0, 0, eos,
                                       tokenizer.eos_token_id, compact=compact)
        return out, cache

    # end-of-reply tokens that the rows reach at different steps: the token each row draws at its own step
    free, _ = generate(False, set())
    eos = {g.token_ids[3 + 6 * i] for i, g in enumerate(free)} - {g.token_ids[0] for g in free}
    runs = {}
    for compact in (False, True):
        runs[compact] = generate(compact, eos)
    (plain, c_plain), (compacted, c_comp) = runs[False], runs[True]
    assert kept, "no row was dropped: the test would not exercise compaction"
    assert len({len(g.token_ids) for g in plain}) > 2  # rows really finished at different steps
    for a, b in zip(plain, compacted):
        assert a.token_ids == b.token_ids and a.finished == b.finished
        assert torch.allclose(torch.tensor(a.logprobs), torch.tensor(b.logprobs), atol=1e-4, rtol=0)  # float rounding
    assert sorted(e.ids for e in c_plain.entries) == sorted(e.ids for e in c_comp.entries)
    by_ids = {tuple(e.ids): e for e in c_plain.entries}
    for e in c_comp.entries:
        for (k1, v1), (k2, v2) in zip(by_ids[tuple(e.ids)].kv, e.kv):
            assert k1.shape == k2.shape and torch.allclose(k1, k2, atol=1e-4) and torch.allclose(v1, v2, atol=1e-4)
