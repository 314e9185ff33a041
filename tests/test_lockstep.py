"""Lockstep generation: failed rounds, and collective generators with several real processes (gloo on the CPU)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from reterm.agent.policy import Generation
from distributed.lockstep_rounds import in_lockstep
from reterm.training.lockstep import CollectiveRounds, GenerationFailed, LockstepGenerator

ROOT = Path(__file__).resolve().parent.parent


def _run_episodes(gen: LockstepGenerator, keys, turns: int) -> dict:
    """Each episode asks for `turns` replies (ending at its first error, as run_episode does)."""
    seen = {k: [] for k in keys}

    def episode(key):
        for t in range(turns):
            try:
                seen[key].append(gen._generate(key, [t]).text)
            except Exception as e:  # noqa: BLE001 - recorded for the test
                seen[key].append(type(e).__name__)
                return

    in_lockstep(gen, keys, episode)
    return seen


def test_a_failed_round_fails_only_its_episodes():
    calls = []

    def flaky(prompts):
        calls.append(len(prompts))
        if len(calls) == 1:
            raise ConnectionError("hiccup")
        return [Generation("ok", [1], [0.0]) for _ in prompts]

    gen = LockstepGenerator(flaky, None, None, "m", max_failed_rounds=2)
    first = _run_episodes(gen, ["a", "b"], turns=2)
    assert first == {"a": ["ConnectionError"], "b": ["ConnectionError"]}
    second = _run_episodes(gen, ["c"], turns=2)
    assert second == {"c": ["ok", "ok"]} and gen.failed_rounds == 0
    gen.check()  # some rounds succeeded: nothing to raise


def test_failed_rounds_in_a_row_raise_generation_failed_and_count_across_generators():
    def broken(prompts):
        raise ConnectionError("server down")

    gen = LockstepGenerator(broken, None, None, "m", max_failed_rounds=3)
    assert _run_episodes(gen, ["a"], 1) == {"a": ["ConnectionError"]}
    with pytest.raises(GenerationFailed, match="every generation round.*server down"):
        gen.check()
    later = LockstepGenerator(broken, None, None, "m", max_failed_rounds=3, failed_rounds=gen.failed_rounds)
    assert _run_episodes(later, ["b"], 3) == {"b": ["ConnectionError"]} and later.failed_rounds == 2
    assert _run_episodes(later, ["c", "d"], 1) == {"c": ["GenerationFailed"], "d": ["GenerationFailed"]}


def test_collective_rounds_pad_to_the_largest_process_and_drain():
    """Two processes simulated by the sizes `all_gather` reports for the other one: this order of sizes (the other
    larger, then drained, then again) is exact here, where two real processes (the slow test below) give whatever
    order their timing does."""
    sent = []
    other = iter([(3, False), (0, True), (2, False), (0, True)])
    rounds = CollectiveRounds(lambda ps: sent.append(list(ps)) or [Generation("", p, []) for p in ps],
                              lambda obj: obj + [next(other)], noop_prompt=[0])
    assert [g.token_ids for g in rounds([[5]])] == [[5]]  # padded to 3, answers of the padding dropped
    assert rounds([[6], [7]]) and sent[1] == [[6], [7]]  # the other process is done: no padding needed
    rounds.drain()  # the other process still generates one round of 2, then is done
    assert sent == [[[5], [0], [0]], [[6], [7]], [[0], [0]]] and rounds.padded == 4


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _launch(out: Path, *extra: str, timeout: float = 240):
    """Two processes on this machine. `--cpu` would start one process only; `--multi_gpu` starts them with torchrun
    and the script's `Accelerator(cpu=True)` then joins them over gloo (MULTI_CPU)."""
    env = dict(os.environ, OMP_NUM_THREADS="1", PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "accelerate.commands.launch", "--multi_gpu", "--num_processes", "2",
           "--num_machines", "1", "--mixed_precision", "no", "--dynamo_backend", "no",
           "--main_process_port", str(_free_port()),
           str(ROOT / "tests" / "distributed" / "lockstep_rounds.py"), str(out), *extra]
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)


@pytest.mark.slow
def test_two_processes_take_part_in_every_server_mode_round(tmp_path):
    """Process 0 runs 4 episodes in two phases (5 rounds), process 1 one episode of 6 turns: with CollectiveRounds
    both take part in every round with equally many prompts, and every episode gets the answer to its own prompt.
    (Without it, `--raw`, process 1 received process 0's answers in this setting, and a longer episode hangs.)"""
    r = _launch(tmp_path)
    assert r.returncode == 0, r.stderr[-3000:]
    ranks = [json.loads((tmp_path / f"rank{i}.json").read_text()) for i in (0, 1)]
    assert ranks[0]["wrong"] == [] and ranks[1]["wrong"] == []
    assert ranks[0]["calls"] == ranks[1]["calls"]  # same rounds, same sizes
    assert ranks[0]["calls"] == [3, 3, 1, 1, 1, 1]  # process 0 takes part in process 1's sixth round too
