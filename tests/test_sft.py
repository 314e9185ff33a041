"""The SFT cold start: recovery-turn masks and recipes/sft.py with TRL's SFTTrainer.

Demonstrations come from the real pipeline (synthesize -> oracle recover -> build, local sandboxes); the tokenizer and
chat template are SmolLM2's; the model is a tiny random Llama saved locally (training SmolLM2 itself is the CPU recipe
in benchmarks/RESULTS.md, not a test).
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest
import torch

from data_pipeline import build as build_mod
from reterm.training.sft_data import ConversationError, prepare_dataset, tokenize_conversation

ROOT = Path(__file__).resolve().parent.parent


def _recipe():
    if "reterm_sft_recipe" not in sys.modules:  # the dataclasses in it need their module registered
        spec = importlib.util.spec_from_file_location("reterm_sft_recipe", ROOT / "recipes" / "sft.py")
        mod = importlib.util.module_from_spec(spec)
        sys.modules["reterm_sft_recipe"] = mod
        spec.loader.exec_module(mod)
    return sys.modules["reterm_sft_recipe"]


def _expected_loss_text(row, eos: str) -> str:
    return "".join(m["content"] + eos for m, t in zip(row["messages"], row["trainable"]) if t)


def test_mask_covers_exactly_the_trainable_replies_and_their_end_token(demos, tokenizer):
    ds = build_mod.load_dataset_dir(demos)["train"]
    for row in ds:
        out = tokenize_conversation(tokenizer, row["messages"], row["trainable"])
        ids, mask = out["input_ids"], out["assistant_masks"]
        assert len(ids) == len(mask)
        # the pieces put together are exactly the rendered conversation
        assert tokenizer.decode(ids) == tokenizer.apply_chat_template(row["messages"], tokenize=False)
        loss_text = tokenizer.decode([i for i, m in zip(ids, mask) if m])
        assert loss_text == _expected_loss_text(row, tokenizer.eos_token)
        # an episode with a mistake has an assistant turn that carries no loss (the mistake); a clean one has none
        untrained = [m for m, t in zip(row["messages"], row["trainable"]) if m["role"] == "assistant" and not t]
        assert bool(untrained) == (row["error_category"] != "ok")


def test_bad_flags_are_refused(tokenizer):
    msgs = [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}]
    with pytest.raises(ConversationError, match="role is 'user'"):
        tokenize_conversation(tokenizer, msgs, [False, True])
    with pytest.raises(ConversationError, match="2 messages but 1"):
        tokenize_conversation(tokenizer, msgs, [False])


def _args(demos, model_dir, out, *extra):
    return ["--dataset_name", str(demos), "--model_name_or_path", str(model_dir), "--output_dir", str(out),
            "--per_device_train_batch_size", "2", "--learning_rate", "1e-2", "--logging_steps", "1",
            "--save_strategy", "steps", "--save_steps", "1", "--report_to", "none", "--use_cpu", "true",
            "--seed", "0", "--max_length", "2048", *extra]


def test_trainer_labels_carry_loss_only_on_recovery_turns_and_training_moves_weights(demos, tiny_model_dir,
                                                                                    tokenizer, tmp_path):
    sft = _recipe()
    trainer, resume = sft.build_trainer(*sft.parse(_args(demos, tiny_model_dir, tmp_path / "run", "--max_steps", "2")))
    assert resume is None
    raw = build_mod.load_dataset_dir(demos)["train"]
    prepared = trainer.train_dataset
    assert len(prepared) == len(raw)
    for row, ex in zip(raw, prepared):  # what TRL will compute the loss on, decoded
        labels = ex["labels"]
        assert tokenizer.decode([t for t in labels if t != -100]) == _expected_loss_text(row, tokenizer.eos_token)
    before = {n: p.detach().clone() for n, p in trainer.model.named_parameters()}
    trainer.train()
    changed = [n for n, p in trainer.model.named_parameters() if not torch.equal(p.detach(), before[n])]
    assert len(changed) == len(before)
    assert (tmp_path / "run" / "checkpoint-2" / "trainer_state.json").exists()


def test_recipe_keeps_the_checkpoint_with_the_lowest_validation_loss(demos, tiny_model_dir, tmp_path):
    from transformers import EarlyStoppingCallback

    sft = _recipe()
    trainer, _ = sft.build_trainer(*sft.parse(_args(
        demos, tiny_model_dir, tmp_path / "run", "--max_steps", "4", "--eval_strategy", "steps", "--eval_steps", "1",
        "--dataset_test_split", "validation",
        "--load_best_model_at_end", "true", "--metric_for_best_model", "eval_loss", "--greater_is_better", "false",
        "--early_stopping_patience", "2")))
    assert any(isinstance(c, EarlyStoppingCallback) for c in trainer.callback_handler.callbacks)
    trainer.train()
    evals = {h["step"]: h["eval_loss"] for h in trainer.state.log_history if "eval_loss" in h}
    assert len(evals) >= 2
    best_step = min(evals, key=evals.get)
    assert trainer.state.best_model_checkpoint.endswith(f"checkpoint-{best_step}")
    assert trainer.state.best_metric == pytest.approx(evals[best_step])


def test_evaluation_without_a_validation_split_is_a_clear_error(demos, tiny_model_dir, tmp_path, capsys):
    sft = _recipe()
    assert sft.main(_args(demos, tiny_model_dir, tmp_path / "run", "--eval_strategy", "steps",
                          "--dataset_test_split", "test")) == 2
    assert "no split 'test'" in capsys.readouterr().err


def test_recipe_resumes_from_the_last_checkpoint(demos, tiny_model_dir, tmp_path):
    sft = _recipe()
    out = tmp_path / "run"
    assert sft.main(_args(demos, tiny_model_dir, out, "--max_steps", "2")) == 0
    assert sft.main(_args(demos, tiny_model_dir, out, "--max_steps", "4", "--resume_from_checkpoint", "true")) == 0
    state = json.loads((out / "checkpoint-4" / "trainer_state.json").read_text())
    steps = [h["step"] for h in state["log_history"] if "loss" in h]
    assert steps == [1, 2, 3, 4]  # steps 1-2 come from the first run's checkpoint, not a restart
    assert (out / "model.safetensors").exists() and (out / "tokenizer_config.json").exists()


def test_a_checkpoint_whose_save_was_cut_off_is_passed_over(demos, tiny_model_dir, tmp_path, capsys):
    """A process killed while saving (the end of a session) leaves a checkpoint folder without trainer_state.json,
    which the Trainer writes last: resuming takes the newest complete one, says so, and saves the cut step again."""
    sft = _recipe()
    out = tmp_path / "run"
    assert sft.main(_args(demos, tiny_model_dir, out, "--max_steps", "2")) == 0
    (out / "checkpoint-2" / "trainer_state.json").unlink()
    capsys.readouterr()
    assert sft.main(_args(demos, tiny_model_dir, out, "--max_steps", "3", "--resume_from_checkpoint", "true")) == 0
    assert "checkpoint-2" in capsys.readouterr().err.split("a save cut off")[0]
    state = json.loads((out / "checkpoint-3" / "trainer_state.json").read_text())
    assert [h["step"] for h in state["log_history"] if "loss" in h] == [1, 2, 3]
    assert (out / "checkpoint-2" / "trainer_state.json").exists()  # step 2 saved again


def test_lora_recipe_writes_an_adapter_and_a_merged_model(demos, tiny_model_dir, tmp_path):
    from transformers import AutoModelForCausalLM

    sft = _recipe()
    out = tmp_path / "lora"
    assert sft.main(_args(demos, tiny_model_dir, out, "--max_steps", "1", "--use_peft", "true", "--lora_r", "4",
                          "--lora_target_modules", "q_proj", "v_proj")) == 0
    assert (out / "adapter_config.json").exists()
    merged = AutoModelForCausalLM.from_pretrained(out / "merged")
    base = AutoModelForCausalLM.from_pretrained(tiny_model_dir)
    q = "model.layers.0.self_attn.q_proj.weight"
    assert not torch.equal(merged.state_dict()[q], base.state_dict()[q])  # the adapter was merged in


def test_missing_dataset_is_a_clear_error(tiny_model_dir, tmp_path, capsys):
    sft = _recipe()
    rc = sft.main(_args(tmp_path / "no-such-dir", tiny_model_dir, tmp_path / "out", "--max_steps", "1"))
    assert rc == 2
    err = capsys.readouterr().err
    assert "no-such-dir does not exist" in err and "data_pipeline.build" in err


def test_shipped_recipes_parse(tmp_path):
    sft = _recipe()
    cfgs = sorted((ROOT / "recipes" / "configs").glob("*/sft*.yaml"))
    assert {c.parent.name for c in cfgs} >= {"smollm2-135m", "qwen2.5-coder-7b-instruct"}
    for cfg in cfgs:  # GPU-only settings off: this machine has no GPU (the refusal is the next test)
        script_args, training_args, model_args, reterm_args = sft.parse(["--config", str(cfg), "--use_cpu", "true",
                                                                         "--bf16", "false"])
        assert training_args.output_dir.startswith("checkpoints/")
        assert reterm_args.train_on == "trainable"
        # selection, not memorisation: validation loss picks the checkpoint, and stops a run that stopped improving
        assert training_args.eval_strategy == "steps" and training_args.load_best_model_at_end
        assert training_args.metric_for_best_model == "eval_loss" and training_args.learning_rate <= 1e-4
        assert training_args.save_steps % training_args.eval_steps == 0 and reterm_args.early_stopping_patience > 0
    with pytest.raises(ValueError):
        prepare_dataset(None, None, train_on="everything")


def test_paper_scale_sft_recipe_feeds_the_grpo_recipes_and_refuses_clearly_without_gpus(capsys):
    """The 7B SFT recipe writes the checkpoint the 7B GRPO recipes start from; on a machine without CUDA GPUs it
    exits 2 with a message naming what is missing and the CPU recipes, before TRL's own refusal."""
    import yaml

    scale = ROOT / "recipes" / "configs" / "qwen2.5-coder-7b-instruct"
    sft_out = yaml.safe_load((scale / "sft.yaml").read_text())["output_dir"]
    for grpo in ("reterm_grpo.yaml", "grpo.yaml"):
        assert yaml.safe_load((scale / grpo).read_text())["model_name_or_path"] == sft_out
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: the refusal does not apply")
    assert _recipe().main(["--config", str(scale / "sft.yaml")]) == 2
    err = capsys.readouterr().err
    assert "needs CUDA GPUs" in err and "_cpu.yaml" in err and "Traceback" not in err


def test_packed_rows_train_exactly_as_rows_alone(tiny_model, tokenizer, demos):
    """`varlen_sdpa`: a micro-batch packed into one sequence (TRL's padding-free collator) gives the loss and the
    gradients of its rows one at a time (the token-weighted mean), within float32 rounding, on a model with grouped
    key/value heads; rows of different lengths."""
    import copy

    from trl.trainer.sft_trainer import DataCollatorForLanguageModeling

    from reterm.training import packing

    packing.register()
    model = copy.deepcopy(tiny_model).train()
    ds = prepare_dataset(build_mod.load_dataset_dir(demos)["train"], tokenizer)
    rows = []
    for ex in list(ds)[:4]:
        labels = [t if m else -100 for t, m in zip(ex["input_ids"], ex["assistant_masks"])]
        rows.append({"input_ids": ex["input_ids"], "labels": labels})
    assert len({len(r["input_ids"]) for r in rows}) > 1

    def grads(loss):
        model.zero_grad()
        loss.backward()
        return torch.cat([p.grad.flatten() for p in model.parameters()])

    model.config._attn_implementation = "sdpa"
    n_items = sum(sum(1 for t in r["labels"][1:] if t != -100) for r in rows)
    total = 0
    for r in rows:
        out = model(input_ids=torch.tensor([r["input_ids"]]), labels=torch.tensor([r["labels"]]),
                    num_items_in_batch=n_items)
        total = total + out.loss
    alone_grads = grads(total)

    model.config._attn_implementation = packing.NAME
    batch = DataCollatorForLanguageModeling(pad_token_id=tokenizer.eos_token_id, padding_free=True)(rows)
    assert batch["input_ids"].shape[0] == 1 and len(batch["cu_seq_lens_q"]) == len(rows) + 1
    packed = model(**batch, num_items_in_batch=n_items)
    packed_grads = grads(packed.loss)
    assert packed.loss.item() == pytest.approx(total.item(), rel=1e-5)
    assert torch.allclose(packed_grads, alone_grads, rtol=1e-4, atol=1e-6)
    with pytest.raises(ValueError, match="would lose its padding mask"):  # no mask function: padded batches refused
        model(input_ids=torch.tensor([rows[0]["input_ids"][:8], rows[1]["input_ids"][:8]]))


def test_padding_free_recipe_packs_rows_and_steps_match_rows_alone(demos, tiny_model_dir, tmp_path):
    """The recipe with `padding_free: true` feeds packed batches (one sequence, the rows' boundaries) to the per-row
    attention, and logs the same loss per step as the same 4 rows one at a time (4 accumulated micro-batches)."""
    from reterm.training import packing

    sft = _recipe()

    def losses(out, *extra):
        trainer, _ = sft.build_trainer(*sft.parse(_args(demos, tiny_model_dir, tmp_path / out, "--max_steps", "2",
                                                        *extra)))
        batch = next(iter(trainer.get_train_dataloader()))
        trainer.train()
        return trainer, batch, [h["loss"] for h in trainer.state.log_history if "loss" in h]

    _, batch, alone = losses("alone", "--per_device_train_batch_size", "1", "--gradient_accumulation_steps", "4")
    assert "cu_seq_lens_q" not in batch
    trainer, batch, packed = losses("packed", "--per_device_train_batch_size", "4", "--gradient_accumulation_steps",
                                    "1", "--padding_free", "true")
    assert trainer.model.config._attn_implementation == packing.NAME
    assert batch["input_ids"].shape[0] == 1 and len(batch["cu_seq_lens_q"]) == 5  # 4 rows in one sequence
    assert len(alone) == len(packed) == 2
    assert packed == pytest.approx(alone, rel=1e-4)
    saved = json.loads((tmp_path / "packed" / "checkpoint-2" / "config.json").read_text())
    assert packing.NAME not in json.dumps(saved)  # a saved model loads without the packing module
