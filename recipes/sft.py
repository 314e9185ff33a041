"""SFT cold start: fine-tune the policy on the recovery turns of verified demonstrations, with TRL's SFTTrainer.

    accelerate launch --config_file recipes/accelerate/cpu.yaml recipes/sft.py \
        --config recipes/configs/smollm2-135m/sft_cpu.yaml [--any_field value ...]

Every field of TRL's `SFTConfig`, `ModelConfig` (LoRA: `--use_peft true --lora_r 16`; dtype, attn_implementation,
model_revision, 4/8-bit loading: reterm/training/common.py `load_recipe_model`, which refuses what it cannot honour)
and `ScriptArguments` (`--dataset_name DIR_OR_REPO`) can be set in the YAML or overridden on the command line, plus
ReTerm's own
`--train_on trainable|assistant`, `--early_stopping_patience N`, `--max_train_examples N` and
`--max_eval_examples N`. The loss falls only on the tokens of trainable assistant turns (see
reterm/training/sft_data.py); `--resume_from_checkpoint true` continues from the newest checkpoint in `output_dir`.
`--padding_free true` packs each micro-batch's rows into one sequence with attention kept within each row
(reterm/training/packing.py; set `per_device_train_batch_size` to the rows a pack holds).

Selection, not memorisation: with `eval_strategy` set, the validation split (other task instances of the training
families) is evaluated during training, the checkpoint with the lowest validation loss is the one saved at the end
(`load_best_model_at_end`, `metric_for_best_model: eval_loss`), and training stops after `early_stopping_patience`
evaluations without improvement.
"""

from __future__ import annotations

import logging
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

from transformers import EarlyStoppingCallback  # noqa: E402
from trl import ModelConfig, ScriptArguments, SFTTrainer, TrlParser, get_peft_config  # noqa: E402

from reterm.training.common import (RecipeError, ReTermSFTConfig, check_output_dir, load_demonstrations,  # noqa: E402
                                    load_recipe_model, parse_recipe, require_model_config, require_platform,
                                    resume_checkpoint, score_trained_positions_on_cpu, setup_wandb)
from reterm.training.sft_data import ConversationError, prepare_dataset  # noqa: E402
from reterm import stopping
from reterm.training import packing  # noqa: E402

log = logging.getLogger("reterm.sft")


@dataclass
class ReTermSFTArguments:
    train_on: str = field(default="trainable", metadata={
        "help": "Which assistant turns carry loss: 'trainable' (the dataset's per-message flags: every "
                "correct turn and every recovery turn, never the injected mistake) or 'assistant' (every assistant "
                "turn)."})
    early_stopping_patience: int = field(default=3, metadata={
        "help": "Stop after this many evaluations without a lower validation loss (0: never stop early). Needs "
                "eval_strategy and load_best_model_at_end."})
    max_train_examples: int | None = field(default=None, metadata={
        "help": "Use at most this many training examples (after shuffling with the run's seed); for smoke runs."})
    cpu_score_trained_only: bool = field(default=True, metadata={
        "help": "On a CPU, TRL's fused LM head scores only the tokens that carry loss (as it does on CUDA) instead of "
                "every token of the batch; the loss is the same. False: TRL's CPU behaviour."})
    max_eval_examples: int | None = field(default=None, metadata={
        "help": "Evaluate on at most this many validation examples (a fixed sample, the same at every evaluation); "
                "bounds the time an evaluation takes on a CPU."})


# Flags: a recipe's flags are the field names of its TRL dataclasses, with underscores (`--max_steps`,
# `--use_peft`), as TRL's parser reads them and as the YAML keys are written; the `reterm` CLI and the scripts and
# drivers (scripts/*.sh, recipes/main_job.py, recipes/compare.py) take dashes (`--run-dir`, `--refill-tries`).
def parse(argv: list[str] | None = None):
    parser = TrlParser((ScriptArguments, ReTermSFTConfig, ModelConfig, ReTermSFTArguments))
    return parse_recipe(parser, argv)


def script_problems(script_args) -> list[str]:
    """ScriptArguments fields this recipe does not honour, set to something other than their default."""
    problems = []
    if script_args.dataset_streaming:
        problems.append("dataset_streaming: this recipe samples and tokenizes the dataset in memory and does not "
                        "stream it; drop dataset_streaming (max_train_examples bounds what is used)")
    if script_args.ignore_bias_buffers:
        problems.append("ignore_bias_buffers: a DDP setting of TRL's DPO script that this recipe does not use; drop it")
    return problems


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        require_platform(argv)  # GPUs for the paper-scale recipes, said before TRL's own refusal
        script_args, training_args, model_args, reterm_args = parse(argv)
        if problems := script_problems(script_args):
            raise RecipeError("; ".join(problems))
        require_model_config(model_args, training_args)  # before the dataset is read and the model loaded
        check_output_dir(training_args.output_dir)
        for name in ("max_train_examples", "max_eval_examples"):
            if getattr(reterm_args, name) is not None and getattr(reterm_args, name) < 1:
                raise RecipeError(f"{name} must be at least 1 (unset: every row), got {getattr(reterm_args, name)}")
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        return train(script_args, training_args, model_args, reterm_args)
    except (RecipeError, ConversationError, FileNotFoundError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


def _sample(split, limit: int | None, seed: int):
    """At most `limit` rows of a split, a fixed sample for a seed (all of them without a limit)."""
    return split.shuffle(seed=seed).select(range(min(limit, len(split)))) if limit else split


def build_trainer(script_args, training_args, model_args, reterm_args):
    """The SFTTrainer for these arguments, and the checkpoint to resume from (or None)."""
    setup_wandb(training_args.report_to, training_args.output_dir)
    score_trained_positions_on_cpu(reterm_args.cpu_score_trained_only)
    resume = resume_checkpoint(training_args.resume_from_checkpoint, training_args.output_dir)
    packed = training_args.packing and training_args.packing_strategy in ("bfd", "bfd_split")
    if training_args.padding_free or packed:  # rows in one sequence: attention per row, without a dense mask
        model_args.attn_implementation = packing.attention_for_packed_rows(model_args.attn_implementation)
    raw = load_demonstrations(script_args.dataset_name, script_args.dataset_config)  # before the model: said sooner
    if script_args.dataset_train_split not in raw:
        raise RecipeError(f"dataset {script_args.dataset_name} has no split {script_args.dataset_train_split!r} "
                          f"(it has {list(raw)})")
    if training_args.eval_strategy != "no" and script_args.dataset_test_split not in raw:
        strategy = getattr(training_args.eval_strategy, "value", training_args.eval_strategy)
        raise RecipeError(f"eval_strategy is {strategy!r} but dataset "
                          f"{script_args.dataset_name} has no split {script_args.dataset_test_split!r} (it has "
                          f"{list(raw)}); set --eval_strategy no --load_best_model_at_end false, or build the dataset "
                          f"with a validation split (data_pipeline.build --split-by family when each family "
                          f"has one task)")
    model, tokenizer = load_recipe_model(model_args, training_args)
    train_raw = _sample(raw[script_args.dataset_train_split], reterm_args.max_train_examples, training_args.seed)
    train_ds = prepare_dataset(train_raw, tokenizer, training_args.max_length, reterm_args.train_on)
    eval_ds = None
    if training_args.eval_strategy != "no":
        eval_raw = _sample(raw[script_args.dataset_test_split], reterm_args.max_eval_examples, training_args.seed)
        eval_ds = prepare_dataset(eval_raw, tokenizer, training_args.max_length, reterm_args.train_on)
    if training_args.padding_free and not training_args.packing:
        training_args.max_length = None  # longer rows were dropped above; TRL enforces it only by packing
    log.info("training on %d examples (%d tokens with loss)", len(train_ds),
             sum(sum(m) for m in train_ds["assistant_masks"]))
    callbacks = []
    if eval_ds is not None and training_args.load_best_model_at_end and reterm_args.early_stopping_patience > 0:
        callbacks.append(EarlyStoppingCallback(early_stopping_patience=reterm_args.early_stopping_patience))
    trainer = SFTTrainer(model=model, args=training_args, train_dataset=train_ds, eval_dataset=eval_ds,
                         processing_class=tokenizer, peft_config=get_peft_config(model_args), callbacks=callbacks)
    return trainer, resume


def train(script_args, training_args, model_args, reterm_args) -> int:
    trainer, resume = build_trainer(script_args, training_args, model_args, reterm_args)
    if resume:
        log.info("resuming from %s", resume)
    trainer.train(resume_from_checkpoint=resume)
    trainer.save_model(training_args.output_dir)
    tokenizer = trainer.processing_class
    if trainer.accelerator.is_main_process:
        tokenizer.save_pretrained(training_args.output_dir)
        if model_args.use_peft:  # a plain model directory too, for `reterm eval --model` and the GRPO recipe
            merged = trainer.accelerator.unwrap_model(trainer.model).merge_and_unload()
            merged.save_pretrained(Path(training_args.output_dir) / "merged")
            tokenizer.save_pretrained(Path(training_args.output_dir) / "merged")
    if training_args.push_to_hub:
        trainer.push_to_hub(dataset_name=script_args.dataset_name)
    return 0


if __name__ == "__main__":
    stopping.install()  # SIGTERM / Ctrl-C: stop within seconds, keep what is finished, exit non-zero
    sys.exit(main())
