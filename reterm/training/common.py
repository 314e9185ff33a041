"""Pieces both recipes need: the SFT config, wandb mode, checkpoint resumption, dataset loading. (The model
loader is `reterm.models.load_model_and_tokenizer`, shared with generation.)"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from trl import SFTConfig

from reterm.hardware import CpuPrecisionMixin


class RecipeError(RuntimeError):
    """A bad recipe setting; the recipes print it and exit 2."""


@dataclass
class ReTermSFTConfig(CpuPrecisionMixin, SFTConfig):
    """TRL's SFTConfig, except that on a CPU an unset `bf16` follows the processor (reterm.hardware) instead of
    defaulting to True: emulated bf16 made an SFT step ~20x slower on AVX2-only CPUs."""


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
    """`resume_from_checkpoint`: a path, or true/"last" for the newest checkpoint in output_dir (None if none)."""
    from transformers.trainer_utils import get_last_checkpoint

    if value in (None, False, "", "false", "False", "no"):
        return None
    if value in (True, "true", "True", "last", "yes"):
        if not Path(output_dir).is_dir():
            return None
        return get_last_checkpoint(output_dir)
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
