"""The record of one episode, in the form both training stages use.

Token layout. `prompt_ids` is the chat-template rendering of the system prompt and the instruction with the
generation prompt. Then, per turn: the ids the model sampled (`completion_ids`, exactly as generated, never
re-tokenized, with their `logprobs`), then the ids of the observation as the chat template renders it
(`observation_ids`: end of the assistant turn if the model did not emit it, the user turn holding the observation,
and the next generation prompt). `token_ids()` concatenates them; `loss_mask()` is 1 exactly on sampled tokens.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from reterm.sandbox import Snapshot


@dataclass
class Turn:
    index: int
    reply: str
    commands: list[str] = field(default_factory=list)
    results: list[dict] = field(default_factory=list)  # ExecResult.to_dict() per command
    parse_error: str | None = None
    said_done: bool = False
    observation: str = ""
    label: str = "ok"
    completion_ids: list[int] | None = None
    logprobs: list[float] | None = None
    observation_ids: list[int] | None = None
    finish_reason: str | None = None
    gen_seconds: float = 0.0
    exec_seconds: float = 0.0
    snapshot_id: str | None = None  # set when the episode snapshotted the sandbox after this turn


@dataclass
class Trajectory:
    task_id: str
    model: str
    format: str
    messages: list[dict] = field(default_factory=list)
    prompt_ids: list[int] | None = None
    turns: list[Turn] = field(default_factory=list)
    stop_reason: str = ""  # done | max_turns | agent_timeout | context_exhausted | error
    reward: float | None = None
    rewards: dict = field(default_factory=dict)
    passed: bool = False
    infra_error: str | None = None
    category: str | None = None
    family: str | None = None
    timings: dict = field(default_factory=dict)
    # Live snapshots taken during the episode (`EpisodeConfig.snapshot_on_error`), by id; handles to this machine's
    # sandboxes, so never saved. Whoever runs the episode releases them (fork_points.choose takes them over).
    snapshots: dict[str, Snapshot] = field(default_factory=dict, repr=False, compare=False)

    # -- tokens ----------------------------------------------------------------------------------------------
    @property
    def has_tokens(self) -> bool:
        return self.prompt_ids is not None and all(t.completion_ids is not None for t in self.turns)

    def token_ids(self) -> list[int]:
        ids = list(self.prompt_ids or [])
        for t in self.turns:
            ids += t.completion_ids or []
            ids += t.observation_ids or []
        return ids

    def loss_mask(self) -> list[int]:
        mask = [0] * len(self.prompt_ids or [])
        for t in self.turns:
            mask += [1] * len(t.completion_ids or [])
            mask += [0] * len(t.observation_ids or [])
        return mask

    # -- export ----------------------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        d = asdict(replace(self, snapshots={}))
        del d["snapshots"]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Trajectory":
        d = dict(d)
        d["turns"] = [Turn(**t) for t in d.get("turns", [])]
        return cls(**d)

    def to_chat(self) -> list[dict]:
        """Plain chat messages (system, user instruction, then assistant / user-observation pairs)."""
        return [dict(m) for m in self.messages]

    def to_atif(self, agent_name: str = "reterm", version: str = "0.1.0") -> dict:
        """Harbor's Agent Trajectory Interchange Format (ATIF v1.4)."""
        steps = []
        for m in self.messages[:2]:
            steps.append({"step_id": len(steps) + 1, "source": "system" if m["role"] == "system" else "user",
                          "message": m["content"]})
        for t in self.turns:
            calls = [{"tool_call_id": f"call_{t.index}_{i}", "function_name": "bash", "arguments": {"command": c}}
                     for i, c in enumerate(t.commands)]
            step = {"step_id": len(steps) + 1, "source": "agent", "model_name": self.model, "message": t.reply,
                    "tool_calls": calls,
                    "observation": {"results": [{"source_call_id": calls[i]["tool_call_id"] if i < len(calls)
                                                 else None, "content": t.observation}
                                                for i in range(max(1, len(calls)))][:1]},
                    "extra": {"label": t.label, "said_done": t.said_done, "parse_error": t.parse_error}}
            if t.completion_ids is not None:
                step["metrics"] = {"completion_tokens": len(t.completion_ids),
                                   "completion_token_ids": t.completion_ids}
                if t.logprobs is not None:
                    step["metrics"]["logprobs"] = t.logprobs
            steps.append(step)
        return {
            "schema_version": "ATIF-v1.4",
            "session_id": f"{self.task_id}-{id(self):x}",
            "agent": {"name": agent_name, "version": version, "model_name": self.model,
                      "extra": {"format": self.format}},
            "steps": steps,
            "final_metrics": {"total_steps": len(steps),
                              "total_completion_tokens": sum(len(t.completion_ids or []) for t in self.turns),
                              "extra": {"reward": self.reward, "rewards": self.rewards,
                                        "stop_reason": self.stop_reason}},
        }


def save_jsonl(trajectories: list[Trajectory], path: str | Path, append: bool = True) -> None:
    with open(path, "a" if append else "w") as f:
        for t in trajectories:
            f.write(json.dumps(t.to_dict()) + "\n")


def load_jsonl(path: str | Path) -> list[Trajectory]:
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    out.append(Trajectory.from_dict(json.loads(line)))
                except (ValueError, TypeError) as e:
                    raise ValueError(f"{path}:{n}: not a trajectory record ({e})") from None
    return out
