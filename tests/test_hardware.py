"""The dtype follows the CPU: bf16 only where the processor runs it natively (and a probe finds it faster), unless the
user decides (RETERM_BF16, or an explicit bf16 in a recipe). Real TRL configs and the shipped recipes are parsed."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
import torch

from reterm import hardware

ROOT = Path(__file__).resolve().parent.parent
X86 = "processor\t: 0\nflags\t\t: fpu sse2 avx2 avx512f avx512_bf16\n\nprocessor\t: 1\nflags\t\t: fpu avx2\n"
ARM = "processor\t: 0\nFeatures\t: fp asimd bf16 i8mm\n"
AVX2_ONLY = "flags\t\t: fpu sse2 avx avx2 fma\n"


_parse_flags = hardware.cpu_flags


@pytest.fixture
def choice(monkeypatch):
    """Resets the per-process decision around a test; returns a setter for the CPU's flags and probe result (the
    probe's calls are recorded)."""
    hardware.cpu_bf16_choice.cache_clear()
    monkeypatch.delenv("RETERM_BF16", raising=False)
    probes = []

    def set_cpu(cpuinfo: str, speedup: float = 2.0):
        monkeypatch.setattr(hardware, "cpu_flags", lambda text=None: _parse_flags(cpuinfo))
        monkeypatch.setattr(hardware, "probe_bf16_speedup", lambda: probes.append(1) or speedup)
        return probes

    yield set_cpu
    hardware.cpu_bf16_choice.cache_clear()


def test_cpu_flags_parse_x86_and_arm_cpuinfo():
    assert {"avx512_bf16", "avx2"} <= hardware.cpu_flags(X86)
    assert "bf16" in hardware.cpu_flags(ARM)
    assert hardware.native_bf16(hardware.cpu_flags(X86)) and hardware.native_bf16(hardware.cpu_flags(ARM))
    assert not hardware.native_bf16(hardware.cpu_flags(AVX2_ONLY))


def test_avx2_only_cpu_gets_float32_without_probing(choice):
    probes = choice(AVX2_ONLY, speedup=5.0)
    use, why = hardware.cpu_bf16_choice()
    assert use is False and "emulated" in why
    assert probes == []  # the flags alone decide: no emulated-bf16 probe is paid for


def test_native_bf16_is_chosen_only_when_the_probe_finds_it_faster(choice):
    choice(X86, speedup=1.8)
    assert hardware.cpu_bf16_choice()[0] is True
    hardware.cpu_bf16_choice.cache_clear()
    choice(X86, speedup=0.9)
    use, why = hardware.cpu_bf16_choice()
    assert use is False and "0.90x" in why


def test_environment_variable_forces_the_choice(choice, monkeypatch):
    probes = choice(AVX2_ONLY)
    monkeypatch.setenv("RETERM_BF16", "1")
    assert hardware.cpu_bf16_choice() == (True, "RETERM_BF16=1")
    hardware.cpu_bf16_choice.cache_clear()
    choice(X86, speedup=3.0)
    monkeypatch.setenv("RETERM_BF16", "0")
    assert hardware.cpu_bf16_choice()[0] is False
    assert probes == []


def test_probe_measures_a_plausible_ratio():
    """The probe itself, on this CPU: a finite bf16/fp32 speed ratio within what any CPU gives (emulated bf16 is about
    20x slower, native at most a few times faster)."""
    import math

    r = hardware.probe_bf16_speedup(repeats=1)
    assert math.isfinite(r) and 0.01 < r < 50, r


def test_generation_dtype(choice, monkeypatch):
    assert hardware.generation_dtype("float32") is torch.float32
    assert hardware.generation_dtype("bfloat16") is torch.bfloat16
    with pytest.raises(ValueError, match="dtype 'fp8x'"):
        hardware.generation_dtype("fp8x")
    choice(AVX2_ONLY)
    assert hardware.generation_dtype("auto") is torch.float32
    hardware.cpu_bf16_choice.cache_clear()
    choice(X86, speedup=2.0)
    assert hardware.generation_dtype(None) is torch.bfloat16


@pytest.mark.parametrize("cpuinfo, expected", [(AVX2_ONLY, False), (X86, True)])
def test_recipes_follow_the_cpu_unless_bf16_is_set(choice, tmp_path, cpuinfo, expected):
    """The shipped CPU recipes leave bf16 unset; the parsed TRL configs follow the CPU, an explicit flag wins."""
    sys.path.insert(0, str(ROOT / "recipes"))
    try:
        import reterm_grpo
        import sft
    finally:
        sys.path.remove(str(ROOT / "recipes"))
    choice(cpuinfo, speedup=2.0)
    cfg = ROOT / "recipes/configs/smollm2-135m"
    out = ["--output_dir", str(tmp_path)]
    assert sft.parse(["--config", str(cfg / "sft_cpu.yaml"), *out])[1].bf16 is expected
    for recipe in ("reterm_grpo_cpu.yaml", "grpo_cpu.yaml"):
        assert reterm_grpo.parse(["--config", str(cfg / recipe), *out])[0].bf16 is expected
    forced = sft.parse(["--config", str(cfg / "sft_cpu.yaml"), *out, "--bf16", str(not expected).lower()])[1]
    assert forced.bf16 is (not expected)
