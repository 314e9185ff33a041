"""The model-facing commands end to end, with a tiny random model saved as a normal HF checkpoint dir."""

from __future__ import annotations

import json
import shutil
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


def test_eval_sets_runs_task_sets_and_recovery_benchmarks_at_once_as_their_own_commands_write_them(model_dir,
                                                                                                   tmp_path):
    """`reterm eval-sets`: two task sets and a recovery benchmark on one engine; each set's files are the ones
    `reterm eval` / `reterm recovery-bench eval` write for it alone (same keys, same counts)."""
    for name in ("a", "b"):
        harbor_task(tmp_path / "one" / name)
    harbor_task(tmp_path / "two" / "c")
    bench = tmp_path / "bench"
    _cli("recovery-bench", "build", tmp_path / "two", "--out", bench, "--model", model_dir, *FAST)
    out = tmp_path / "sets"
    r = _cli("eval-sets", "--model", model_dir, *FAST, "--recovery-turns", "1", "-j", "2", "-o", out,
             "--tasks", f"first={tmp_path / 'one'}", "--tasks", f"second={tmp_path / 'two'}",
             "--recovery", f"rec={bench}:3", "--samples", "2")
    summary = json.loads(r.stdout.strip().splitlines()[-1])
    assert summary["sets"]["first"] == {"kind": "tasks", "episodes": 4, "passed": 0, "infra_errors": 0}
    assert summary["sets"]["second"]["episodes"] == 2 and summary["sets"]["rec"]["attempts"] == 6
    assert json.loads((out / "eval-sets.json").read_text())["sets"] == summary["sets"]
    alone = tmp_path / "alone"
    _cli("eval", tmp_path / "one", "--model", model_dir, *FAST, "-k", "2", "-o", alone)
    together, by_itself = (json.loads((d / "eval.json").read_text()) for d in (out / "first", alone))
    assert set(together) == set(by_itself) and together["overall"]["tasks"] == by_itself["overall"]["tasks"] == 2
    assert together["k"] == 2 and len((out / "first" / "trajectories.jsonl").read_text().splitlines()) == 4
    rec = json.loads((out / "rec" / "recovery.json").read_text())
    assert rec["k"] == 3 and rec["overall"]["states"] == 2 and rec["overall"]["attempts"] == 6
    assert all(a["turns"] == 1 for a in rec["attempts"])  # --recovery-turns, not --max-turns
    assert (out / "rec" / "recovery.png").read_bytes()[:4] == b"\x89PNG"
    # the same output again would overwrite results: refused, naming the file
    again = subprocess.run([sys.executable, "-m", "reterm.cli", "eval-sets", "--model", str(model_dir), *FAST, "-o",
                            str(out), "--recovery", f"rec={bench}"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and str(out / "rec" / "recovery.json") in again.stderr
    # another set into the same folder would overwrite its eval-sets.json: refused too
    again = subprocess.run([sys.executable, "-m", "reterm.cli", "eval-sets", "--model", str(model_dir), *FAST, "-o",
                            str(out), "--recovery", f"other={bench}"], capture_output=True, text=True, timeout=300)
    assert again.returncode == 2 and str(out / "eval-sets.json") in again.stderr


def test_eval_sets_keeps_the_sets_that_finished_when_one_fails(model_dir, tmp_path):
    """A recovery benchmark whose task was deleted after it was built fails in its own thread: the task set still
    finishes and is written, eval-sets.json says which set failed and why, and the exit status is 1."""
    harbor_task(tmp_path / "one" / "a")
    harbor_task(tmp_path / "gone" / "b")
    bench = tmp_path / "bench"
    _cli("recovery-bench", "build", tmp_path / "gone", "--out", bench, "--model", model_dir, *FAST)
    shutil.rmtree(tmp_path / "gone")
    out = tmp_path / "sets"
    p = subprocess.run([sys.executable, "-m", "reterm.cli", "eval-sets", "--model", str(model_dir), *FAST, "-o",
                        str(out), "--tasks", f"t={tmp_path / 'one'}", "--recovery", f"r={bench}:1"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 1 and "set r failed" in p.stderr, p.stderr[-3000:]
    assert json.loads((out / "t" / "eval.json").read_text())["overall"]["tasks"] == 1
    summary = json.loads((out / "eval-sets.json").read_text())
    assert summary["sets"]["r"]["kind"] == "error" and summary["sets"]["t"]["episodes"] == 1
    assert not (out / "r" / "recovery.json").exists()


def test_eval_sets_refuses_a_benchmark_it_cannot_restore_before_any_model_loads(model_dir, tmp_path):
    """States built on the local backend restore only there: `--backend docker` is refused naming the set (or, for
    `recovery-bench eval`, the folder) and the backend to give; a benchmark without states, or with none, is refused
    naming it."""
    harbor_task(tmp_path / "tasks" / "a")
    bench = tmp_path / "bench"
    _cli("recovery-bench", "build", tmp_path / "tasks", "--out", bench, "--model", model_dir, *FAST)
    base = [sys.executable, "-m", "reterm.cli", "eval-sets", "--model", str(tmp_path / "no-model"), "-o",
            str(tmp_path / "out")]
    p = subprocess.run([*base, "--backend", "docker", "--recovery", f"r={bench}"], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 2 and "--recovery r: its states were exported from the local backend" in p.stderr, p.stderr
    p = subprocess.run([sys.executable, "-m", "reterm.cli", "recovery-bench", "eval", str(bench), "--backend", "docker",
                        "--model", str(tmp_path / "no-model"), "-o", str(tmp_path / "out")], capture_output=True,
                       text=True, timeout=300)  # the benchmark's own command checks the same, before the model too
    assert p.returncode == 2 and f"{bench}: its states were exported from the local backend" in p.stderr, p.stderr
    for d in (bench / "states").iterdir():
        shutil.rmtree(d)
    p = subprocess.run([*base, "--recovery", f"r={bench}"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and "holds no failure states" in p.stderr, p.stderr
    (bench / "states").rmdir()
    p = subprocess.run([*base, "--recovery", f"r={bench}"], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and "no states/ folder" in p.stderr, p.stderr
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("args, needle", [
    (["--tasks", "noequals"], "--tasks 'noequals': expected NAME=WHERE"),
    (["--tasks", "a/b=basic:train"], "must be letters, digits"),
    (["--tasks", "x=basic:nosuchsplit"], "--tasks 'x=basic:nosuchsplit'"),
    (["--recovery", "r=/nonexistent/bench:2"], "/nonexistent/bench is not a recovery benchmark"),
    (["--tasks", "x=basic:train", "--tasks", "x=basic:heldout_families"], "given twice"),
    ([], "nothing to evaluate"),
])
def test_eval_sets_bad_input_is_refused_before_any_model_loads(tmp_path, args, needle):
    p = subprocess.run([sys.executable, "-m", "reterm.cli", "eval-sets", "--model", str(tmp_path / "no-model"),
                        "-o", str(tmp_path / "out"), *args], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and needle in p.stderr, p.stderr
    assert not (tmp_path / "out").exists()


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
