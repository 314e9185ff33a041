"""The episode loop: model reply -> commands in the sandbox's persistent shell -> observation -> ... -> verifier.

Stops when the model says it is done, at `max_turns`, when the task's agent timeout is spent, or when the next
turn would not fit the context window (`context_exhausted`).

Context policy: the conversation is never rewritten. Rewriting history (dropping or summarizing old turns) would
make the token ids the model saw differ from the ids recorded for training; instead each observation is cut to a
token budget (head + tail, with a marker), and an episode that still outgrows the window ends there.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from reterm import failures
from reterm.agent.formats import make_format, render_result
from reterm.agent.policy import Policy
from reterm.agent.trajectory import Trajectory, Turn
from reterm.sandbox import Sandbox, SandboxError
from reterm.tasks import Task
from reterm import stopping
from reterm.verifier import verify as run_verifier


@dataclass
class EpisodeConfig:
    format: str = "simple"
    max_turns: int = 10
    observation_tokens: int = 512
    command_timeout_s: float = 60.0
    max_context_tokens: int = 8192
    snapshot_on_error: bool = False

    def __post_init__(self):
        make_format(self.format)  # raises on an unknown format
        for name in ("max_turns", "observation_tokens", "max_context_tokens"):
            if getattr(self, name) < 1:
                raise ValueError(f"{name} must be >= 1, got {getattr(self, name)}")
        if self.command_timeout_s <= 0:
            raise ValueError(f"command_timeout_s must be > 0, got {self.command_timeout_s}")


def truncate_to_tokens(text: str, max_tokens: int, tokenizer=None) -> str:
    """Keeps the head and tail of `text` within `max_tokens` (about 4 characters a token without a tokenizer)."""
    if tokenizer is None:
        limit = max_tokens * 4
        if len(text) <= limit:
            return text
        half = limit // 2
        return f"{text[:half]}\n[... {len(text) - 2 * half} characters omitted ...]\n{text[-half:]}"
    ids = tokenizer.encode(text, add_special_tokens=False)
    if len(ids) <= max_tokens:
        return text
    half = max_tokens // 2
    head = tokenizer.decode(ids[:half])
    tail = tokenizer.decode(ids[-half:])
    return f"{head}\n[... {len(ids) - 2 * half} tokens omitted ...]\n{tail}"


def instruction_message(task: Task) -> str:
    return f"Task:\n{task.instruction.strip()}\n\nYou are in a fresh terminal. Start working on the task."


def _first_messages(fmt, task: Task, history: list[dict] | None) -> list[dict]:
    """The conversation an episode starts from: system prompt and instruction, or a copy of `history`."""
    if history is None:
        return [{"role": "system", "content": fmt.system_prompt()},
                {"role": "user", "content": instruction_message(task)}]
    if not history or history[-1]["role"] != "user":
        raise ValueError("history must end with a user message (the observation of the failure state)")
    return [dict(m) for m in history]


def _exec_commands(sandbox: Sandbox, turn: Turn, commands: list[str], cfg: EpisodeConfig, deadline: float,
                   tok) -> tuple[list[str], str | None]:
    """Runs a reply's commands in order while the agent's time lasts, recording each result on `turn`. Returns the
    rendered results and, when the sandbox itself broke, why (the episode ends there)."""
    pieces: list[str] = []
    budget = max(32, cfg.observation_tokens // max(1, len(commands)))
    for command in commands:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            break
        try:
            res = sandbox.exec(command, timeout=min(cfg.command_timeout_s, remaining))
        except SandboxError as e:
            return pieces, f"sandbox failed during the episode: {e}"
        turn.results.append(res.to_dict())
        pieces.append(render_result(command, truncate_to_tokens(res.output, budget, tok), res.exit_code,
                                    res.timed_out, res.truncated))
    return pieces, None


def _extend_ids(tok, messages: list[dict], reply_ids: list[int], turn: Turn, ids: list[int], text_so_far: str) -> str:
    """Appends the reply's sampled ids and the new observation's ids to `ids` (recording the latter on `turn`);
    returns the conversation's rendered text up to the next generation prompt."""
    text_so_far += tok.decode(reply_ids, skip_special_tokens=False)
    ids.extend(reply_ids)
    full = tok.apply_chat_template(messages, add_generation_prompt=True, tokenize=False)
    if not full.startswith(text_so_far):
        # The reply's text renders differently from its tokens (special tokens inside it): continue from the
        # template's rendering of the assistant turn; the ids already recorded stay as sampled.
        text_so_far = tok.apply_chat_template(messages[:-1], tokenize=False)
    turn.observation_ids = tok.encode(full[len(text_so_far):], add_special_tokens=False)
    ids.extend(turn.observation_ids)
    return full


def run_episode(policy: Policy, sandbox: Sandbox, task: Task, config: EpisodeConfig | None = None,
                verify: bool = True, history: list[dict] | None = None) -> Trajectory:
    """One episode of `policy` on `task` in `sandbox`; verifies at the end unless `verify=False`.

    With `history` (chat messages ending with a user message: the conversation up to a failure state, the sandbox
    being in that state), the episode continues from there: `prompt_ids` is the whole history and the recorded turns
    are the continuation only.

    With `config.snapshot_on_error`, the sandbox is snapshotted after each error turn; the snapshots are returned in
    `trajectory.snapshots` (id -> Snapshot) and the caller must release them.
    """
    cfg = config or EpisodeConfig()
    fmt = make_format(cfg.format)
    tok = policy.tokenizer
    traj = Trajectory(task_id=task.id, model=getattr(policy, "model_name", policy.name), format=fmt.name,
                      category=task.category, family=task.family)
    traj.messages = _first_messages(fmt, task, history)
    ids: list[int] | None = None
    text_so_far = ""
    if tok is not None:
        text_so_far = tok.apply_chat_template(traj.messages, add_generation_prompt=True, tokenize=False)
        ids = tok.encode(text_so_far, add_special_tokens=False)
        traj.prompt_ids = list(ids)
    started = time.monotonic()
    deadline = started + task.limits.agent_timeout_sec
    max_new = getattr(getattr(policy, "sampling", None), "max_new_tokens", 0)
    failed_commands: list[str] = []
    gen_total = exec_total = 0.0
    traj.stop_reason = "max_turns"
    try:  # released on every path: the policy's batches wait for episodes that hold a conversation
        for index in range(cfg.max_turns):
            if stopping.STOP.is_set():
                traj.stop_reason = "stopped"
                break
            if time.monotonic() >= deadline:
                traj.stop_reason = "agent_timeout"
                break
            if ids is not None and len(ids) + max_new > cfg.max_context_tokens:
                traj.stop_reason = "context_exhausted"
                break
            t0 = time.monotonic()
            gen = policy.generate(traj.messages, prompt_ids=ids)
            turn = Turn(index=index, reply=gen.text, completion_ids=gen.token_ids, logprobs=gen.logprobs,
                        finish_reason=gen.finish_reason, gen_seconds=time.monotonic() - t0)
            gen_total += turn.gen_seconds
            traj.messages.append({"role": "assistant", "content": gen.text})
            parsed = fmt.parse(gen.text)
            turn.commands, turn.said_done, turn.parse_error = parsed.commands, parsed.done, parsed.error
            t0 = time.monotonic()
            pieces, traj.infra_error = _exec_commands(sandbox, turn, parsed.commands, cfg, deadline, tok)
            turn.exec_seconds = time.monotonic() - t0
            exec_total += turn.exec_seconds
            turn.label = failures.classify_step(turn.results, turn.parse_error, failed_commands, turn.commands)
            if turn.label != failures.OK:
                failed_commands.extend(c for c, r in zip(turn.commands, turn.results) if r["exit_code"] != 0)
            traj.turns.append(turn)
            if traj.infra_error:
                traj.stop_reason = "error"
                break
            if cfg.snapshot_on_error and turn.label != failures.OK:
                snap = sandbox.snapshot()
                turn.snapshot_id = snap.id
                traj.snapshots[snap.id] = snap
            if parsed.done and not parsed.commands:
                traj.stop_reason = "done"
                break
            observation = parsed.error or fmt.observation(pieces + parsed.notes)
            turn.observation = observation
            traj.messages.append({"role": "user", "content": observation})
            if ids is not None:
                text_so_far = _extend_ids(tok, traj.messages, gen.token_ids, turn, ids, text_so_far)
            if parsed.done:
                traj.stop_reason = "done"
                break
    finally:
        if ids is not None:
            policy.release(ids)
    traj.timings = {"generate": round(gen_total, 3), "exec": round(exec_total, 3),
                    "agent": round(time.monotonic() - started, 3)}
    if verify and traj.infra_error is None:
        score_episode(traj, sandbox, task)
    return traj


def score_episode(traj: Trajectory, sandbox: Sandbox, task: Task) -> Trajectory:
    """Runs the task's verifier in `sandbox` and records the reward, and the final-turn label when the tests fail."""
    t0 = time.monotonic()
    v = run_verifier(sandbox, task)
    traj.timings["verify"] = round(time.monotonic() - t0, 3)
    traj.reward, traj.rewards, traj.passed, traj.infra_error = v.reward, v.rewards, v.passed, v.infra_error
    if traj.reward is not None and not traj.passed and traj.turns:
        last = traj.turns[-1]
        label = failures.final_label(last.said_done, last.label == failures.OK)
        if label and last.label == failures.OK:
            last.label = label
    return traj
