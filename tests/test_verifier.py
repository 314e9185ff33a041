"""The verifier on both backends: rewards read right, and every way it can break is an infra failure, not a 0."""

from __future__ import annotations

import pytest

from conftest import harbor_task
from reterm.evaluation.trials import make_agent
from reterm.tasks import load_task
from reterm.verifier import parse_pytest, verify
from test_tasks import tb1_task


def _verify(backend, root, agent="nop", setup=None):
    task = load_task(root)
    with backend.start(task) as sb:
        if setup:
            sb.exec(setup)
        outcome = make_agent(agent).run(sb, task)
        assert outcome.error is None
        return verify(sb, task)


def test_reward_json_keeps_every_key(backend, tmp_path):
    root = harbor_task(tmp_path / "t", test_sh="""
        #!/bin/bash
        mkdir -p /logs/verifier
        echo '{"reward": 0.5, "style": 1, "speed": 0.25}' > /logs/verifier/reward.json
        echo 0 > /logs/verifier/reward.txt
        """)
    v = _verify(backend, root)
    assert v.reward == 0.5 and v.rewards == {"reward": 0.5, "style": 1.0, "speed": 0.25}
    assert not v.passed and v.infra_error is None


def test_reward_txt_oracle_and_nop(backend, tmp_path):
    root = harbor_task(tmp_path / "t")
    assert _verify(backend, root, "oracle").reward == 1.0
    v = _verify(backend, root, "nop")
    assert v.reward == 0.0 and v.infra_error is None


def test_reward_written_by_the_agent_does_not_count(backend, tmp_path):
    root = harbor_task(tmp_path / "t", test_sh="#!/bin/bash\nexit 0\n")
    v = _verify(backend, root, setup="mkdir -p /logs/verifier && echo 1 > /logs/verifier/reward.txt")
    assert v.reward is None and "no reward written" in v.infra_error


@pytest.mark.parametrize("test_sh, words", [
    ("#!/bin/bash\nexit 1\n", "no reward written"),
    ("#!/bin/bash\nmkdir -p /logs/verifier; echo maybe > /logs/verifier/reward.txt\n", "one number"),
    ("#!/bin/bash\nmkdir -p /logs/verifier; echo '{\"a\": \"x\"}' > /logs/verifier/reward.json\n", "flat object"),
    ("#!/bin/bash\nsleep 60\n", "timed out"),
])
def test_broken_verifier_is_an_infra_failure_never_zero(backend, tmp_path, test_sh, words):
    root = harbor_task(tmp_path / "t", toml="[verifier]\ntimeout_sec = 2.0\n", test_sh=test_sh)
    v = _verify(backend, root, "oracle")
    assert v.reward is None and words in v.infra_error


def test_verifier_does_not_inherit_agent_shell_state(backend, tmp_path):
    root = harbor_task(tmp_path / "t", test_sh="""
        #!/bin/bash
        mkdir -p /logs/verifier
        [ "$(pwd)" = /app ] && [ -z "$POISON" ] && echo 1 > /logs/verifier/reward.txt || echo 0 > /logs/verifier/reward.txt
        """)
    assert _verify(backend, root, setup="export POISON=1; cd /tmp").reward == 1.0
    # nor in a fork of a snapshot taken while the agent's shell held that state
    task = load_task(root)
    with backend.start(task) as sb:
        sb.exec("export POISON=1; cd /tmp")
        [fork] = sb.fork(1)
    with fork:
        assert fork.exec("echo $POISON; pwd").output == "1\n/tmp\n"  # the agent's shell state did carry over
        assert verify(fork, task).reward == 1.0


def test_tb1_pytest_reward(backend, tmp_path):
    root = tb1_task(tmp_path / "hello")
    v = _verify(backend, root, "oracle")
    assert v.reward == 1.0, v.output[-2000:]
    assert v.rewards["tests_passed"] == 2
    v = _verify(backend, root, "nop")
    assert v.reward == 0.0 and v.rewards["tests_total"] == 2


def test_parse_pytest_both_styles():
    out = ("tests/test_a.py::test_x PASSED    [ 50%]\n"
           "=========================== short test summary info ============================\n"
           "PASSED tests/test_a.py::test_x\nFAILED tests/test_a.py::test_y - assert 1 == 2\n")
    assert parse_pytest(out) == {"tests/test_a.py::test_x": "PASSED", "tests/test_a.py::test_y": "FAILED"}
    assert parse_pytest("collected 0 items\n") == {}
