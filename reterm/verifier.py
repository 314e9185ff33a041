"""Runs a task's tests in a sandbox and reads the reward.

A verifier that crashes, times out or writes no reward is an *infra failure*: `reward is None` with the reason in
`infra_error`, never 0 — a training signal must not punish the policy for the harness breaking.
"""

from __future__ import annotations

import json
import math
import re
import time
from dataclasses import asdict, dataclass, field

from reterm.sandbox import Sandbox, SandboxError, ShellState
from reterm.tasks import Task

TESTS_DIR = "/tests"
REWARD_DIR = "/logs/verifier"
_PYTEST_LINE = re.compile(r"^(?:(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED)\s+(\S+::\S+)|(\S+::\S+)\s+(PASSED|FAILED|ERROR|XFAIL|XPASS|SKIPPED)\b)")


@dataclass
class VerifyResult:
    reward: float | None
    rewards: dict[str, float] = field(default_factory=dict)
    infra_error: str | None = None
    output: str = ""
    exit_code: int | None = None
    duration: float = 0.0

    @property
    def passed(self) -> bool:
        """Full marks: reward 1 (partial credit from reward.json counts as not passed)."""
        return self.reward is not None and self.reward >= 1.0

    def to_dict(self) -> dict:
        return {**asdict(self), "passed": self.passed}


def parse_pytest(output: str) -> dict[str, str]:
    """Test id -> outcome, from `-rA` summary lines (`PASSED t::x`) or verbose lines (`t::x PASSED`)."""
    results: dict[str, str] = {}
    for line in output.splitlines():
        m = _PYTEST_LINE.match(line.strip())
        if m:
            outcome, test = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
            results[test] = outcome
    return results


def _reward_from_files(sandbox: Sandbox) -> tuple[float | None, dict[str, float], str | None]:
    try:
        raw = sandbox.read_file(f"{REWARD_DIR}/reward.json")
    except FileNotFoundError:
        raw = None
    if raw is not None:
        try:
            data = json.loads(raw)
        except ValueError as e:
            return None, {}, f"reward.json is not valid JSON: {e}"
        if not isinstance(data, dict) or not data or not all(
            isinstance(v, (int, float)) and not isinstance(v, bool) for v in data.values()
        ):
            return None, {}, f"reward.json must be a flat object of numbers, got {raw[:200]!r}"
        rewards = {k: float(v) for k, v in data.items()}
        reward = rewards["reward"] if "reward" in rewards else sum(rewards.values()) / len(rewards)
        return reward, rewards, None
    try:
        raw = sandbox.read_file(f"{REWARD_DIR}/reward.txt")
    except FileNotFoundError:
        return None, {}, "no reward written (neither reward.json nor reward.txt in /logs/verifier)"
    try:
        reward = float(raw.decode().strip())
    except ValueError:
        return None, {}, f"reward.txt must hold one number, got {raw[:200]!r}"
    if math.isnan(reward):
        return None, {}, "reward.txt holds NaN"
    return reward, {"reward": reward}, None


def verify(sandbox: Sandbox, task: Task, timeout: float | None = None) -> VerifyResult:
    start = time.monotonic()
    timeout = timeout or task.limits.verifier_timeout_sec
    # The tests run from the environment's initial state: nothing the agent exported or cd'ed into leaks in.
    base = sandbox.spec.initial_state
    state = ShellState(sandbox.spec.workdir, {**base.env, **task.verifier_env})
    try:
        # A reward the agent wrote itself must never count: clear the reward dir before the tests run.
        # (find -delete rather than rm -rf: /tests may be a mount point that cannot itself be removed)
        prep = sandbox.exec(f"mkdir -p {TESTS_DIR} {REWARD_DIR} && find {TESTS_DIR} {REWARD_DIR} -mindepth 1 -delete",
                            60, state)
        if not prep.ok:
            return VerifyResult(None, infra_error=f"could not prepare {TESTS_DIR}: {prep.output[-500:]}",
                                duration=time.monotonic() - start)
        sandbox.upload(task.tests_dir, TESTS_DIR)
        script = f"{TESTS_DIR}/{task.test_script.name}"
        if task.test_script.parent != task.tests_dir:
            sandbox.upload(task.test_script, script)
        res = sandbox.exec(f"bash {script}", timeout=timeout, state=state)
    except SandboxError as e:
        return VerifyResult(None, infra_error=f"sandbox failed during verification: {e}",
                            duration=time.monotonic() - start)
    out = VerifyResult(None, output=res.output, exit_code=res.exit_code)
    if res.timed_out:
        out.infra_error = f"verifier timed out after {timeout:g}s"
    elif res.shell_restarted:
        out.infra_error = "the sandbox shell died while the tests ran"
    elif task.reward_mode == "pytest":
        results = parse_pytest(res.output)
        if not results:
            out.infra_error = f"no pytest results in the output of {task.test_script.name} (exit {res.exit_code})"
        else:
            ok = all(v in ("PASSED", "XFAIL", "SKIPPED") for v in results.values()) and "PASSED" in results.values()
            out.reward = 1.0 if ok else 0.0
            out.rewards = {"reward": out.reward, "tests_passed": float(sum(v == "PASSED" for v in results.values())),
                           "tests_total": float(len(results))}
    else:
        try:
            out.reward, out.rewards, out.infra_error = _reward_from_files(sandbox)
        except SandboxError as e:
            out.infra_error = f"could not read the reward: {e}"
        if out.infra_error:
            out.infra_error += f" (test.sh exited {res.exit_code})"
    out.duration = time.monotonic() - start
    return out
