"""Keep vLLM out of a GRPO process that does not use it.

TRL's GRPO trainer imports `trl.generation`, which imports vLLM whenever vLLM is installed, whether or not the run
generates with it: on two CPU cores that is 6-20 s of every recipe process's start (the compare and main jobs start
one per run and per evaluation point). A run without `use_vllm` never touches vLLM, so the recipe decides from its
command line first and, when the answer is no, marks vLLM absent for this process (`sys.modules["vllm"] = None`:
`import vllm` then fails at once and TRL's `is_vllm_available()` says False). Where the command line cannot be read
here (an unreadable `--config`, an odd value), nothing is blocked and TRL's parser says what is wrong, as before.
"""

from __future__ import annotations

import sys
from pathlib import Path

def _truth(value) -> bool | None:
    """`value` as the parser reads a bool field (transformers' `string_to_bool`); None where it would refuse it."""
    from argparse import ArgumentTypeError

    from transformers.hf_argparser import string_to_bool  # the recipe imports transformers next in any case

    try:
        return string_to_bool(value if isinstance(value, bool) else str(value))
    except ArgumentTypeError:
        return None


def _names_use_vllm(flag: str) -> bool | None:
    """Whether `flag` (the part before any `=`) is `use_vllm` as argparse reads flags: dashes or underscores, or a
    prefix no other field shares (`--use_v`); None for a shorter prefix (`--use`), which could be it."""
    name = flag[2:].replace("-", "_")
    if not flag.startswith("--") or not name or not "use_vllm".startswith(name):
        return False
    return True if len(name) >= len("use_v") else None


def wants_vllm(argv: list[str]) -> bool | None:
    """`use_vllm` as the recipe's parser (TRL's: `--config YAML` sets defaults, the command line overrides them) will
    read it from `argv`: True, False (also when nothing sets it: TRL's default), or None when it cannot be told."""
    for i in range(len(argv) - 1, -1, -1):  # the last one on the line wins
        flag, eq, value = argv[i].partition("=")
        named = _names_use_vllm(flag)
        if named is None:
            return None
        if not named:
            continue
        if eq:
            return _truth(value)
        nxt = argv[i + 1] if i + 1 < len(argv) else None
        return True if nxt is None or nxt.startswith("-") else _truth(nxt)
    if "--config" in argv:
        i = argv.index("--config")
        if i + 1 >= len(argv):
            return None
        try:
            import yaml

            config = yaml.safe_load(Path(argv[i + 1]).read_text())
        except (OSError, ValueError, yaml.YAMLError):
            return None
        if not isinstance(config, dict):
            return None
        return _truth(config["use_vllm"]) if "use_vllm" in config else False
    return False


def block_vllm_unless_used(argv: list[str]) -> bool:
    """Before TRL is imported: mark vLLM absent in this process when `argv` surely runs without it. True if it did."""
    if wants_vllm(argv) is not False or "vllm" in sys.modules:
        return False
    sys.modules["vllm"] = None  # type: ignore[assignment]  # the import system's own "not here" marker
    return True
