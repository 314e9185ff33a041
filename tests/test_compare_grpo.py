"""benchmarks/compare_grpo.py end to end at toy scale: a tiny random model as the "SFT checkpoint", a frozen
recovery benchmark of one state, plain GRPO and ReTerm-GRPO for one step and one seed on the local backend, every
checkpoint evaluated, one table and one chart; a second run of the same command redoes nothing."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from conftest import get_backend, harbor_task
from reterm.agent.episode import EpisodeConfig
from reterm.agent.policy import ReplayPolicy
from reterm.evaluation import recovery_bench as rb
from reterm.tasks import load_task

ROOT = Path(__file__).resolve().parent.parent


def _compare():
    spec = importlib.util.spec_from_file_location("compare_grpo", ROOT / "benchmarks" / "compare_grpo.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules["compare_grpo"] = mod
    spec.loader.exec_module(mod)
    return mod


def test_bad_method_and_missing_inputs_are_clear_errors(tmp_path, capsys):
    cmp = _compare()
    for bad in ("reterm:middle", "reterm", "reterm:first:stop", "reterm:first:skip:x", "plain:skip"):
        with pytest.raises(SystemExit, match=f"method '{bad}'"):
            cmp.method_args(bad)
    assert cmp.method_args("reterm:last") == ["--fork_from", "failure", "--fork_point", "last"]
    assert cmp.method_args("reterm:first:skip") == ["--fork_from", "failure", "--fork_point", "first",
                                                     "--on_success", "skip"]
    with pytest.raises(SystemExit):
        cmp.parse_args(["--sft", str(tmp_path / "none"), "--bench", str(tmp_path), "--out", str(tmp_path / "o")])
    assert "--sft" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.timeout(1500)
def test_toy_comparison_end_to_end_and_resumable(tmp_path, tiny_model_dir, tokenizer):
    cmp = _compare()
    task = load_task(harbor_task(tmp_path / "tasks" / "t"))
    failing = ReplayPolicy(["```bash\ncd /app && cat /app/notes.txt\n```", "TASK_COMPLETE"], tokenizer)
    rb.build(failing, [task], get_backend("local"), tmp_path / "bench", EpisodeConfig(max_turns=2))
    out = tmp_path / "cmp"
    argv = ["--sft", str(tiny_model_dir), "--bench", str(tmp_path / "bench"), "--out", str(out), "--steps", "1",
            "--eval-every", "1", "--seeds", "0", "--methods", "plain", "reterm:first", "--max-heldout", "2",
            "-k", "2", "--token-budget", "256", "--refill-tries", "2", "--concurrency", "2",
            "--", "--max_new_tokens_per_turn", "8", "--max_scout_turns", "1", "--max_recovery_turns", "1",
            "--num_generations", "2", "--per_device_train_batch_size", "2", "--sandbox_concurrency", "4"]
    assert cmp.main(argv) == 0
    res = json.loads((out / "results.json").read_text())
    rows = {(r["method"], r["step"]): r for r in res["rows"]}
    assert set(rows) == {("sft", 0), ("plain", 1), ("reterm:first", 1)}
    for r in rows.values():
        assert r["overall"]["n"] == 2 and r["pass@1"]["n"] == 2  # 1 state x k=2, 2 held-out tasks x 1 sample
        lo, hi = r["overall"]["ci95"]
        assert 0 <= lo <= r["overall"]["rate"] <= hi <= 1
    for name in ("plain-s0", "reterm-first-s0"):
        assert res["runs"][name]["training"]["sampled_tokens_mean"] > 0  # the budget used, logged for both
    table = (out / "table.md").read_text()
    assert "| plain | 1 | 1 |" in table and "| reterm:first | 1 | 1 |" in table
    assert (out / "compare.png").read_bytes()[:4] == b"\x89PNG"

    done = {p: p.stat().st_mtime_ns for p in out.rglob("*") if p.name == "DONE" or p.suffix == ".json"
            and "eval" in p.parts}
    assert cmp.main(argv) == 0  # resumed: nothing retrained or re-evaluated
    assert {p: p.stat().st_mtime_ns for p in done} == done
