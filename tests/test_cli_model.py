"""The model-facing commands end to end, with a tiny random model saved as a normal HF checkpoint dir."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from conftest import harbor_task


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory, tiny_model, tokenizer):  # noqa: F811
    d = tmp_path_factory.mktemp("tiny-model")
    tiny_model.save_pretrained(d)
    tokenizer.save_pretrained(d)
    return d


def _cli(*args):
    r = subprocess.run([sys.executable, "-m", "reterm.cli", *map(str, args)], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    return r


FAST = ["--max-turns", "2", "--max-new-tokens", "8", "--backend", "local", "--seed", "0"]


def test_eval_reports_pass_at_k_and_saves_trajectories(model_dir, tmp_path):
    harbor_task(tmp_path / "tasks" / "a")
    harbor_task(tmp_path / "tasks" / "b")
    out = tmp_path / "eval"
    _cli("eval", tmp_path / "tasks", "--model", model_dir, "-k", "2", *FAST, "-o", out)
    report = json.loads((out / "eval.json").read_text())
    assert report["k"] == 2 and report["overall"]["tasks"] == 2
    assert report["overall"]["pass@1"] == 0.0 and report["overall"]["pass@2"] == 0.0  # a random model
    assert set(report["by_category"]) == {"test"}
    trajs = [json.loads(l) for l in (out / "trajectories.jsonl").read_text().splitlines()]
    assert len(trajs) == 4 and sorted(t["sample"] for t in trajs) == [0, 0, 1, 1]
    assert all(t["prompt_ids"] and t["turns"][0]["completion_ids"] for t in trajs)
    rows = [json.loads(l) for l in (out / "results.jsonl").read_text().splitlines()]
    assert all(r["agent"] == "model" and r["turns"] == 2 for r in rows)


def test_recovery_bench_cli(model_dir, tmp_path):
    harbor_task(tmp_path / "tasks" / "a")
    bench = tmp_path / "bench"
    r = _cli("recovery-bench", "build", tmp_path / "tasks", "--out", bench, "--model", model_dir, *FAST)
    built = json.loads(r.stdout.strip().splitlines()[-1])
    assert built["states"] == 2 and built["by_category"] == {"unparseable_reply": 2}
    out = tmp_path / "rec"
    _cli("recovery-bench", "eval", bench, "-k", "2", "--model", model_dir, *FAST, "-o", out)
    report = json.loads((out / "recovery.json").read_text())
    assert report["by_category"]["unparseable_reply"]["attempts"] == 4
    assert (out / "recovery.png").read_bytes()[:4] == b"\x89PNG"


def test_bad_model_path_is_a_clear_error(tmp_path):
    harbor_task(tmp_path / "tasks" / "a")
    r = subprocess.run([sys.executable, "-m", "reterm.cli", "run", str(tmp_path / "tasks"), "--agent", "model",
                        "--model", str(tmp_path / "no-such-model"), "--backend", "local", "-o",
                        str(tmp_path / "o")], capture_output=True, text=True)
    assert r.returncode == 2 and "no-such-model" in r.stderr


@pytest.mark.parametrize("env,expected", [(None, "False"), ("YES", "True")])
def test_models_load_without_hub_kernels_unless_asked(model_dir, env, expected):
    """transformers would swap a GPU model's layers for kernels fetched from the Hub at run time (and fail where the
    Hub cannot be reached: seen on a GPU machine); once ReTerm is imported they are off unless USE_HUB_KERNELS=YES."""
    import os

    import transformers

    if env == "YES" and int(transformers.__version__.split(".")[0]) < 5:
        pytest.skip("transformers 4.x loads no hub kernels by default: nothing to turn back on")

    code = ("import reterm; from reterm.models import load_model_and_tokenizer; "
            f"print(load_model_and_tokenizer({str(model_dir)!r})[0].use_kernels)")
    environ = {k: v for k, v in os.environ.items() if k != "USE_HUB_KERNELS"}
    if env is not None:
        environ["USE_HUB_KERNELS"] = env
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=environ)
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip().splitlines()[-1] == expected
