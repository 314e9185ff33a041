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
from pathlib import PurePosixPath

from reterm.sandbox import Sandbox, SandboxError, ShellState
from reterm.sandbox.shell import user_command
from reterm.tasks import Task

TESTS_DIR = "/tests"
REWARD_DIR = "/logs/verifier"
ARTIFACTS_DIR = "/logs/artifacts"
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
    found = sandbox.read_first_file([f"{REWARD_DIR}/reward.json", f"{REWARD_DIR}/reward.txt"])
    if found is None:
        return None, {}, "no reward written (neither reward.json nor reward.txt in /logs/verifier)"
    name, raw = found
    if name.endswith(".json"):
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
        reward = float(raw.decode().strip())
    except ValueError:
        return None, {}, f"reward.txt must hold one number, got {raw[:200]!r}"
    if math.isnan(reward):
        return None, {}, "reward.txt holds NaN"
    return reward, {"reward": reward}, None


def _upload_tests(sandbox: Sandbox, task: Task, state: ShellState) -> str | None:
    """Fresh /tests and /logs/verifier; returns an error, or None."""
    # A reward the agent wrote itself must never count: clear the reward dir before the tests run.
    # (find -delete rather than rm -rf: /tests may be a mount point that cannot itself be removed)
    prep = sandbox.exec(f"mkdir -p {TESTS_DIR} {REWARD_DIR} && find {TESTS_DIR} {REWARD_DIR} -mindepth 1 -delete",
                        60, state)
    if not prep.ok:
        return f"could not prepare {TESTS_DIR}: {prep.output[-500:]}"
    if task.tests_base_dir is not None:  # multi-step: the task's shared tests, then the step's own over them
        sandbox.upload(task.tests_base_dir, TESTS_DIR)
    sandbox.upload(task.tests_dir, TESTS_DIR)
    if task.test_script.parent != task.tests_dir:
        sandbox.upload(task.test_script, f"{TESTS_DIR}/{task.test_script.name}")
    return None


def copy_artifacts(src: Sandbox, dst: Sandbox, paths: list[str]) -> None:
    """Each path (file or dir) of `src` to the same absolute path in `dst`; missing ones are skipped, as Harbor
    does (the tests then fail on their own)."""
    for path in [ARTIFACTS_DIR, *paths]:
        try:
            data = src.get_archive(path)
        except FileNotFoundError:
            continue
        dst.put_archive(str(PurePosixPath(path).parent), data)


def _run_separate(sandbox: Sandbox, task: Task, timeout: float) -> tuple[Sandbox | None, object, str | None]:
    """Starts the verifier's own sandbox, hands it the artifacts and runs the tests baked into it."""
    vtask = task.verifier_environment
    vsb = sandbox.backend.start(vtask)
    try:
        copy_artifacts(sandbox, vsb, task.artifacts)
        state = ShellState(vsb.spec.workdir, {**vsb.spec.initial_state.env, **task.verifier_env})
        prep = vsb.exec(f"mkdir -p {REWARD_DIR} && find {REWARD_DIR} -mindepth 1 -delete", 60, state)
        if not prep.ok:
            return vsb, None, f"could not prepare {REWARD_DIR} in the verifier's sandbox: {prep.output[-500:]}"
        return vsb, vsb.exec(_as_user(f"bash {TESTS_DIR}/{task.test_script.name}", task.verifier_user),
                             timeout=timeout, state=state), None
    except BaseException:
        vsb.close()
        raise


def _as_user(command: str, user: str | None) -> str:
    return command if user in (None, "root", "0") else user_command(command, user)


def verify(sandbox: Sandbox, task: Task, timeout: float | None = None, logs_dir=None) -> VerifyResult:
    """Runs the task's tests; with `logs_dir`, keeps their output (test-stdout.txt) and /logs/verifier there."""
    start = time.monotonic()
    timeout = timeout or task.limits.verifier_timeout_sec
    # The tests run from the environment's initial state: nothing the agent exported or cd'ed into leaks in.
    base = sandbox.spec.initial_state
    state = ShellState(sandbox.spec.workdir, {**base.env, **task.verifier_env})
    reader = sandbox
    try:
        if task.verifier_environment is not None:
            reader, res, error = _run_separate(sandbox, task, timeout)
        else:
            error = _upload_tests(sandbox, task, state)
            res = None if error else sandbox.exec(_as_user(f"bash {TESTS_DIR}/{task.test_script.name}",
                                                           task.verifier_user), timeout=timeout, state=state)
        if error:
            return VerifyResult(None, infra_error=error, duration=time.monotonic() - start)
        out = _score(reader, task, res, timeout)
        if logs_dir is not None:
            reader.download_dir(REWARD_DIR, logs_dir)
            (logs_dir / "test-stdout.txt").write_text(res.output)
    except SandboxError as e:
        return VerifyResult(None, infra_error=f"sandbox failed during verification: {e}",
                            duration=time.monotonic() - start)
    finally:
        if reader is not sandbox and reader is not None:
            reader.close()
    out.duration = time.monotonic() - start
    return out


def _score(sandbox: Sandbox, task: Task, res, timeout: float) -> VerifyResult:
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
    return out
