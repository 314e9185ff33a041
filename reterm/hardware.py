"""Which floating-point type pays off on this machine: bf16 or float32, for training and for generation.

TRL's configs default to bf16, and the CPU recipes once set it too: measured ~1.4x faster than float32 for SFT on a CPU
with AVX512-BF16. On a CPU without native bf16 instructions (AVX2 only) PyTorch emulates bf16 and the same SFT step
took more than 20 minutes instead of 65 s in float32; a GRPO test ran past its timeout. So on a CPU ReTerm picks the
type from what the processor supports, confirmed by a quick probe (a forward and backward pass of a transformer-sized
linear layer in both types; under a second), unless the user decided:

- `RETERM_BF16=1` / `RETERM_BF16=0` forces the choice for every ReTerm entry point;
- a recipe's explicit `bf16: true|false` (YAML or `--bf16`) wins for that run.

On a GPU nothing here applies: the trainers keep TRL's defaults.
"""

from __future__ import annotations

import functools
import logging
import os
import platform
import time
from pathlib import Path

log = logging.getLogger("reterm.hardware")

# Flags under which the kernel reports native bf16 arithmetic: x86 (AVX512-BF16, AMX-BF16) and Arm (BF16 extension).
NATIVE_BF16_FLAGS = ("avx512_bf16", "amx_bf16", "bf16")
# bf16 must be at least this much faster than float32 in the probe to be chosen: a tie is not worth the precision.
MIN_BF16_SPEEDUP = 1.1


def cpu_flags(cpuinfo: str | None = None) -> set[str]:
    """The CPU's feature flags, as /proc/cpuinfo lists them (`flags` on x86, `Features` on Arm)."""
    if cpuinfo is None:
        try:
            cpuinfo = Path("/proc/cpuinfo").read_text(errors="replace")
        except OSError:
            return set()
    flags: set[str] = set()
    for line in cpuinfo.splitlines():
        key, _, value = line.partition(":")
        if key.strip() in ("flags", "Features"):
            flags.update(value.split())
    return flags


def native_bf16(flags: set[str] | None = None) -> bool:
    return bool((cpu_flags() if flags is None else flags) & set(NATIVE_BF16_FLAGS))


def probe_bf16_speedup(repeats: int = 5) -> float:
    """float32 time / bf16-autocast time of a forward+backward through a 576x1536 linear layer (SmolLM2's MLP width)
    on 256 tokens; the median of `repeats` runs each. > 1 means bf16 is faster."""
    import torch

    layer = torch.nn.Linear(576, 1536)
    x = torch.randn(256, 576)

    def timed(autocast: bool) -> float:
        runs = []
        for _ in range(repeats + 1):  # the first run warms the kernels up and is dropped
            t0 = time.perf_counter()
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=autocast):
                layer(x).float().sum().backward()
            runs.append(time.perf_counter() - t0)
        return sorted(runs[1:])[len(runs[1:]) // 2]

    return timed(False) / timed(True)


@functools.lru_cache(maxsize=1)
def cpu_bf16_choice() -> tuple[bool, str]:
    """(use bf16?, why) for this CPU; decided once per process and logged."""
    forced = os.environ.get("RETERM_BF16")
    if forced is not None and forced.strip() != "":
        use = forced.strip().lower() in ("1", "true", "yes", "on")
        return _logged(use, f"RETERM_BF16={forced}")
    flags = cpu_flags()
    if not native_bf16(flags):
        return _logged(False, f"{platform.machine()} CPU without native bf16 ({'/'.join(NATIVE_BF16_FLAGS)} absent): "
                              f"bf16 would be emulated, ~20x slower")
    speedup = probe_bf16_speedup()
    if speedup < MIN_BF16_SPEEDUP:
        return _logged(False, f"native bf16, but the probe measured bf16 only {speedup:.2f}x float32's speed")
    return _logged(True, f"native bf16; the probe measured bf16 {speedup:.2f}x float32's speed")


def _logged(use: bool, why: str) -> tuple[bool, str]:
    log.info("dtype on the CPU: %s (%s)", "bf16" if use else "float32", why)
    return use, why


def on_cpu(use_cpu: bool = False) -> bool:
    if use_cpu:
        return True
    import torch

    return not torch.cuda.is_available()


def torch_dtype(name: str):
    """The torch dtype called `name` (float32, bfloat16, float16); ValueError naming the choices otherwise."""
    import torch

    if not isinstance(getattr(torch, str(name), None), torch.dtype):
        raise ValueError(f"dtype {name!r}: expected auto, float32, bfloat16 or float16")
    return getattr(torch, name)


def generation_dtype(requested: str | None = "auto"):
    """The torch dtype to load a model in for generation: `requested` (float32 | bfloat16 | …) when given, else bf16
    where the CPU runs it natively and faster, else float32. On a GPU `auto` keeps float32 (the policy's dtype is the
    trainer's business there)."""
    import torch

    if requested not in (None, "auto"):
        return torch_dtype(requested)
    if on_cpu() and cpu_bf16_choice()[0]:
        return torch.bfloat16
    return torch.float32


class CpuPrecisionMixin:
    """For TRL configs (bf16: None = not set by the user): on a CPU, bf16 follows `cpu_bf16_choice()` instead of
    TRL's blanket default of True. Put it before the TRL config class in the bases."""

    def __post_init__(self):
        if getattr(self, "bf16", None) is None and not getattr(self, "fp16", False) and on_cpu(self.use_cpu):
            self.bf16 = cpu_bf16_choice()[0]
        super().__post_init__()
