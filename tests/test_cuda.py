"""Generation and training on a CUDA GPU: the transformers policy (with its kept key/value states), ReTerm-GRPO's
rollouts and update, the GRPO and SFT recipes with bf16, stop and resume.

Skipped where torch sees no CUDA device: CI and the CPU development machines have none. They ran on a lent GPU
machine (one NVIDIA H200; benchmarks/RESULTS.md, *The GPU paths*, says when and what they found), with the project's
Python packages carried as wheels, bubblewrap's binary carried, and the tokenizer as a saved copy
(`RETERM_TEST_TOKENIZER`). Sandboxes are real (bubblewrap), the model is the tiny random Llama of conftest; nothing is
mocked.
"""

from __future__ import annotations

import json
import math

import pytest
import torch

from conftest import state_dirs
from test_grpo import _Census, _grpo_recipe, batch, tasks, trainer_for  # noqa: F401 (tasks: a fixture)
from test_sft import _recipe as _sft_recipe

pytestmark = pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA GPU (torch sees none)")


def _gpu_model(tiny_model_dir):
    from transformers import AutoModelForCausalLM

    torch.manual_seed(0)
    return AutoModelForCausalLM.from_pretrained(tiny_model_dir).to("cuda")


def test_kept_key_value_states_generate_as_re_encoding_does_on_the_gpu(tiny_model_dir, tokenizer):
    """Greedy replies of the cached path (prefill of the new tokens only, preallocated decode buffers, finished rows
    leaving the batch) and of `model.generate` on the whole prompt are the same ids on the GPU, a second turn reuses
    the first's states, and the states stay on the GPU."""
    from reterm.agent.policy import SamplingConfig, TransformersPolicy

    model = _gpu_model(tiny_model_dir)
    sampling = SamplingConfig(max_new_tokens=12, temperature=0.0)
    cached = TransformersPolicy("tiny", sampling, model=model, tokenizer=tokenizer)
    plain = TransformersPolicy("tiny", sampling, model=model, tokenizer=tokenizer, kv_cache_tokens=0)
    try:
        prompts = [tokenizer.encode(t) for t in ("ls -la /app", "cat /etc/os-release and say which system",
                                                 "echo hi")]
        first = cached._generate_batch(prompts)
        assert [g.token_ids for g in first] == [g.token_ids for g in plain._generate_batch(prompts)]
        turn2 = [p + g.token_ids + tokenizer.encode(" next") for p, g in zip(prompts, first)]
        second = cached._generate_batch(turn2)
        again = plain._generate_batch(turn2)
        assert [g.token_ids for g in second] == [g.token_ids for g in again]
        for a, b in zip(second, again):
            assert torch.allclose(torch.tensor(a.logprobs), torch.tensor(b.logprobs), atol=1e-3)
        assert cached.prefix_cache.stats["reused_tokens"] > 0
        entry, n = cached.prefix_cache.lookup(turn2[0])
        assert n > 0 and entry.kv[0][0].device.type == "cuda"
    finally:
        cached.close()
        plain.close()


def test_a_policy_that_loads_its_model_generates_on_the_gpu(tiny_model_dir):
    from reterm.agent.policy import SamplingConfig, TransformersPolicy

    policy = TransformersPolicy(str(tiny_model_dir), SamplingConfig(max_new_tokens=6, seed=0))
    try:
        assert policy.model.device.type == "cuda"
        g = policy.generate([{"role": "user", "content": "list the files"}])
        assert g.token_ids and len(g.logprobs) == len(g.token_ids)
    finally:
        policy.close()


def test_a_grpo_step_on_the_gpu_changes_the_weights_and_releases_every_sandbox(tmp_path, tiny_model_dir, tokenizer,
                                                                               tasks):
    """test_grpo's step test with the trainer on the GPU in bf16 (rollout logprobs computed there too)."""
    from reterm.sandbox.resources import state_root

    model = _gpu_model(tiny_model_dir)
    before = {n: p.detach().clone() for n, p in model.named_parameters()}
    tr = trainer_for(tmp_path, model, tokenizer, tasks, max_steps=2, refill_tries=2, use_cpu=False, bf16=True)
    root = state_root()

    def census():
        return {sub: [p.name for p in state_dirs(root, sub)] for sub in ("sandboxes", "snapshots")}

    before_run = census()
    counts = []
    tr.add_callback(_Census(lambda: counts.append(census())))
    tr.train()
    assert next(tr.model.parameters()).device.type == "cuda"
    assert counts == [before_run] * 2
    assert [n for n, p in model.named_parameters() if not torch.equal(p.detach(), before[n])]
    losses = [h["loss"] for h in tr.state.log_history if "loss" in h]
    assert losses and all(math.isfinite(x) for x in losses)


def test_real_generation_on_the_gpu_is_the_same_with_and_without_kept_kv_states(tmp_path, tiny_model_dir, tokenizer,
                                                                                tasks, monkeypatch):
    """The trainer's own (unconstrained) transformers rollouts on the GPU: the same seed gives the same groups with
    every turn re-encoded and with the states kept."""
    def rollout(cache_tokens: str, sub: str):
        monkeypatch.setenv("RETERM_KV_CACHE_TOKENS", cache_tokens)
        model = _gpu_model(tiny_model_dir)
        tr = trainer_for(tmp_path / sub, model, tokenizer, tasks, replies=None, max_scout_turns=2,
                         max_recovery_turns=2, use_cpu=False)
        tr._generate_and_score_completions(batch(tasks))
        return [(a.prompt_ids, a.completion_ids, a.logprobs) for g in tr.last_groups for a in g.attempts]

    uncached, cached = rollout("0", "uncached"), rollout("", "cached")
    assert uncached and [(p, c) for p, c, _ in uncached] == [(p, c) for p, c, _ in cached]
    for (_, _, a), (_, _, b) in zip(uncached, cached):
        assert torch.allclose(torch.tensor(a), torch.tensor(b), atol=1e-3)


def test_grpo_recipe_on_the_gpu_stops_after_a_step_and_resumes(tmp_path, tiny_model_dir):
    """The recipe as a user runs it (bundled tasks, the trainer's own rollouts), bf16 on the GPU: a stop after step 1
    leaves checkpoint-1 and nothing after it; the same command with resume continues to step 2 and saves the model."""
    rec = _grpo_recipe()
    out = tmp_path / "o"
    argv = ["--model_name_or_path", str(tiny_model_dir), "--output_dir", str(out), "--report_to", "none",
            "--bf16", "true", "--num_generations", "2", "--per_device_train_batch_size", "4",
            "--max_new_tokens_per_turn", "8", "--max_scout_turns", "1", "--max_recovery_turns", "1",
            "--max_steps", "2", "--save_strategy", "steps", "--save_steps", "1", "--logging_steps", "1"]
    assert rec.main(argv + ["--stop_after_step", "1"]) == 0
    assert (out / "checkpoint-1").is_dir() and not (out / "checkpoint-2").exists()
    assert not (out / "model.safetensors").exists()
    assert rec.main(argv + ["--resume_from_checkpoint", "true"]) == 0
    assert (out / "checkpoint-2").is_dir() and (out / "model.safetensors").exists()
    state = json.loads((out / "checkpoint-2" / "trainer_state.json").read_text())
    assert state["global_step"] == 2
    assert any("reterm/time_rollout_s" in h for h in state["log_history"])


def test_sft_recipe_trains_in_bf16_on_the_gpu(demos, tiny_model_dir, tmp_path):
    sft = _sft_recipe()
    argv = ["--dataset_name", str(demos), "--model_name_or_path", str(tiny_model_dir),
            "--output_dir", str(tmp_path / "run"), "--per_device_train_batch_size", "2", "--learning_rate", "1e-2",
            "--logging_steps", "1", "--save_strategy", "steps", "--save_steps", "2", "--report_to", "none",
            "--bf16", "true", "--seed", "0", "--max_length", "2048", "--max_steps", "2"]
    trainer, _ = sft.build_trainer(*sft.parse(argv))
    before = {n: p.detach().clone() for n, p in trainer.model.named_parameters()}
    trainer.train()
    assert next(trainer.model.parameters()).device.type == "cuda" and trainer.args.bf16
    changed = [n for n, p in trainer.model.named_parameters() if not torch.equal(p.detach().cpu(), before[n].cpu())]
    assert len(changed) == len(before)
    losses = [h["loss"] for h in trainer.state.log_history if "loss" in h]
    assert len(losses) == 2 and all(math.isfinite(x) for x in losses)
    assert (tmp_path / "run" / "checkpoint-2" / "trainer_state.json").exists()


def test_grpo_recipe_with_lora_in_bf16_on_the_gpu_loads_what_its_settings_say(tmp_path, tiny_model_dir):
    """The single-GPU configs' way of training (reterm_grpo_1gpu.yaml less vLLM): LoRA adapters on a base loaded in
    bf16 with sdpa attention through the recipe's loader, one step on the GPU, the adapter and the merged model
    written. Added after the lent GPU's run: not yet run on a GPU."""
    rec = _grpo_recipe()
    out = tmp_path / "o"
    argv = ["--model_name_or_path", str(tiny_model_dir), "--output_dir", str(out), "--report_to", "none",
            "--bf16", "true", "--dtype", "bfloat16", "--attn_implementation", "sdpa", "--use_peft", "true",
            "--lora_r", "4", "--lora_target_modules", "q_proj", "v_proj", "--num_generations", "2",
            "--per_device_train_batch_size", "4", "--max_new_tokens_per_turn", "8", "--max_scout_turns", "1",
            "--max_recovery_turns", "1", "--max_steps", "1", "--save_strategy", "no", "--logging_steps", "1"]
    args, model_args = rec.parse(argv)
    model = rec.build_trainer(args, model_args).model
    assert model.base_model.model.config._attn_implementation == "sdpa"
    assert {p.dtype for n, p in model.named_parameters() if "lora_" not in n} == {torch.bfloat16}
    assert rec.main(argv) == 0
    assert (out / "adapter_config.json").exists() and (out / "merged" / "config.json").exists()
