"""ReTerm-GRPO (and, with `fork_from: start`, plain multi-turn GRPO) on terminal tasks, with TRL's GRPOTrainer.

    accelerate launch --config_file recipes/accelerate/cpu.yaml recipes/reterm_grpo.py \
        --config recipes/configs/smollm2-135m/reterm_grpo_cpu.yaml [--any_field value ...]

Every field of `ReTermGRPOConfig` (TRL's GRPOConfig + the rollout's settings; see reterm/training/grpo.py) and of
TRL's `ModelConfig` (LoRA: `--use_peft true --lora_r 16`; dtype, attn_implementation, model_revision, 4/8-bit loading:
reterm/training/common.py `load_recipe_model`, which refuses what it cannot honour) can be set in the YAML or on the
command line. The tasks are a bundled suite split
(`--suite basic --suite_split train`) or a directory of task dirs (`--suite path/to/tasks`).
`--resume_from_checkpoint true` continues the run from the newest checkpoint in `output_dir`; `--stop_after_step N`
ends it after step N's checkpoint (evaluate it, then continue with the same command less that flag).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run from a checkout without installing

if __name__ == "__main__":  # a run without use_vllm does not pay for importing vLLM (reterm/training/vllm_gate.py)
    from reterm.training.vllm_gate import block_vllm_unless_used

    block_vllm_unless_used(sys.argv[1:])

from trl import ModelConfig, get_peft_config  # noqa: E402

from reterm.options import select_tasks  # noqa: E402
from reterm.tasks import TaskError  # noqa: E402
from reterm.sandbox import SandboxError  # noqa: E402
from reterm.training.common import (RecipeError, StopAfterStep, check_output_dir, checkpoint_step,  # noqa: E402
                                    load_recipe_model, require_model_config, require_platform, resume_checkpoint,
                                    setup_wandb)
from reterm.training.config import parse_grpo_args  # noqa: E402
from reterm.training.grpo import ReTermGRPOConfig, ReTermGRPOTrainer  # noqa: E402
from reterm import stopping

log = logging.getLogger("reterm.grpo")


def load_tasks(suite: str, split: str):
    """The training tasks; a bad suite or split is a RecipeError naming both."""
    try:
        return select_tasks((), suite, split)
    except (TaskError, ValueError) as e:
        raise RecipeError(f"suite {suite} split {split}: {e}") from e


# Flags: a recipe's flags are the field names of its TRL dataclasses, with underscores (`--refill_tries`,
# `--fork_from`), as TRL's parser reads them and as the YAML keys are written; the `reterm` CLI and the scripts and
# drivers (scripts/*.sh, recipes/main_job.py, recipes/compare.py) take dashes (`--run-dir`, `--refill-tries`).
def parse(argv: list[str] | None = None):
    return parse_grpo_args(argv)


def build_trainer(args: ReTermGRPOConfig, model_args: ModelConfig, backend=None):
    require_model_config(model_args, args)  # before the tasks and the model are loaded
    setup_wandb(args.report_to, args.output_dir)
    tasks = load_tasks(args.suite, args.suite_split)
    model, tokenizer = load_recipe_model(model_args, args)
    trainer = ReTermGRPOTrainer(model=model, args=args, tasks=tasks, processing_class=tokenizer, backend=backend,
                                peft_config=get_peft_config(model_args))
    return trainer


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    try:
        require_platform(argv)
        args, model_args = parse(argv)
        require_model_config(model_args, args)
        check_output_dir(args.output_dir)
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
        resume = resume_checkpoint(args.resume_from_checkpoint, args.output_dir)
        if args.stop_after_step and checkpoint_step(resume) >= args.stop_after_step:  # before anything is loaded
            log.info("stop_after_step %d: %s already holds step %d; nothing to train", args.stop_after_step, resume,
                     checkpoint_step(resume))
            return 0
        trainer = build_trainer(args, model_args)
    except (RecipeError, FileNotFoundError, SandboxError, ValueError) as e:  # ValueError: a bad setting
        print(f"error: {e}", file=sys.stderr)
        return 2
    if resume:
        log.info("resuming from %s", resume)
    if args.stop_after_step:
        trainer.add_callback(StopAfterStep(args.stop_after_step))
    trainer.train(resume_from_checkpoint=resume)
    if args.stop_after_step and trainer.state.global_step < args.max_steps:  # a checkpoint, not the run's model
        log.info("stopped after step %d of %d (checkpoint-%d); --resume_from_checkpoint true continues",
                 trainer.state.global_step, args.max_steps, trainer.state.global_step)
        return 0
    trainer.save_model(args.output_dir)
    if trainer.accelerator.is_main_process:
        trainer.processing_class.save_pretrained(args.output_dir)
        if model_args.use_peft:  # a plain model directory too, for `reterm eval --model`, as the SFT recipe writes
            merged = trainer.accelerator.unwrap_model(trainer.model).merge_and_unload()
            merged.save_pretrained(Path(args.output_dir) / "merged")
            trainer.processing_class.save_pretrained(Path(args.output_dir) / "merged")
    if args.push_to_hub:
        trainer.push_to_hub()
    return 0


if __name__ == "__main__":
    stopping.install()  # SIGTERM / Ctrl-C: stop within seconds, keep what is finished, exit non-zero
    sys.exit(main())
