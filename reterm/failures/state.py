"""FailureState: one record of the moment a policy went wrong, and the one file schema every step writes it in.

A failure state is a task, the conversation up to and including the failing turn's observation (`history`), the
turn, its error category and evidence (the error text), and a way back to the sandbox at that moment: a live
`Snapshot` (a scout's, during training), a snapshot exported to a file (`ExportedSnapshot`: the recovery benchmark
and `collect`), or the commands that rebuild it in a fresh sandbox (`steps`: `synthesize`). A synthesized clean
start (`category` `ok`, `turn` -1, the history being the system prompt and instruction) is the same record with no
mistake in it: the teacher's clean episodes start from it.

Files. A state is saved either as a folder (`save_dir`: `state.json` plus the exported snapshot beside it, written to a
temporary name and renamed into place, so a state appears whole or not at all) or as one JSON line of a shard
(`to_dict`). Both hold the same record, with `version` = SCHEMA_VERSION; an exported snapshot's `file` is relative
to the folder of the JSON that names it. Records written before the schema had a version (the benchmark's
`state.json`, the synthesize and collect shard rows) are read by `from_dict` too; anything else fails with the file,
the line and the command that writes a fresh one.
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path

from reterm.sandbox import Backend, SandboxSpec, Snapshot

SCHEMA_VERSION = 1
STATE_FILE = "state.json"
EVIDENCE_CHARS = 2000  # the error text kept with a state: the tail of the output, where errors are reported
SOURCES = ("scout", "collected", "synthesized")
_REDO = ("re-create it with the step that wrote it: `python -m data_pipeline.synthesize`, `python -m "
         "data_pipeline.collect` or `reterm recovery-bench build`")


class FailureStateError(ValueError):
    """A file that does not hold a failure state this version can read."""


@dataclass
class ExportedSnapshot:
    """A snapshot written to a file by `Backend.export_snapshot`; a backend of the same kind restores it."""

    file: str  # relative to the folder of the JSON that names it
    backend: str
    spec: dict  # SandboxSpec.to_dict(): the shell state travels here, not in the file


@dataclass
class FailureState:
    id: str
    task_id: str
    task_path: str | None
    history: list[dict]  # system, instruction, (assistant, user) pairs; ends with the failing turn's observation
    turn: int  # index of the failing turn (0 = the first assistant turn)
    category: str
    evidence: str = ""
    source: str = "scout"
    family: str | None = None
    task_category: str | None = None
    format: str | None = None
    model: str | None = None
    exported: ExportedSnapshot | None = None
    steps: list[str] | None = None  # synthesized: the commands that rebuild the state in a fresh sandbox
    perturbation: str | None = None
    # synthesized: the reference solution's steps (one per turn) and the index of the one the injected mistake
    # replaced, so a teacher can run the corrected step and then the rest; the assistant turns before it are clean
    # reference steps (trainable), the mistake itself never is
    solution_steps: list[str] | None = None
    broken_step: int | None = None
    seed: int | None = None
    snapshot: Snapshot | None = field(default=None, repr=False, compare=False)  # live; never saved as such
    directory: Path | None = field(default=None, repr=False, compare=False)  # where `exported.file` is relative to

    # -- the live snapshot -----------------------------------------------------------------------------------------
    def release(self) -> None:
        """Gives back the live snapshot, if the state holds one (idempotent)."""
        snap, self.snapshot = self.snapshot, None
        if snap is not None:
            snap.release()

    def restore(self, backend: Backend) -> Snapshot:
        """A live Snapshot of this state on `backend` (the caller releases it): the live one (acquired once more),
        or the exported one imported. Synthesized states are rebuilt by replaying `steps` instead."""
        if self.snapshot is not None:
            return self.snapshot.acquire()
        if self.exported is None or self.directory is None:
            raise FailureStateError(f"failure state {self.id} holds no snapshot to restore")
        return backend.import_snapshot(self.directory / self.exported.file, SandboxSpec.from_dict(self.exported.spec),
                                       exported_by=self.exported.backend)

    # -- files -----------------------------------------------------------------------------------------------------
    def to_dict(self, relative_to: Path | None = None) -> dict:
        """The record as saved (JSON-ready); with `relative_to`, the exported snapshot's file is named relative to
        that folder (the one holding the JSON this record goes into)."""
        d = {"version": SCHEMA_VERSION}
        for f in fields(self):
            if f.name not in ("snapshot", "directory"):
                v = getattr(self, f.name)
                d[f.name] = asdict(v) if isinstance(v, ExportedSnapshot) else v
        if self.exported is not None and relative_to is not None and self.directory is not None:
            d["exported"]["file"] = os.path.relpath(self.directory / self.exported.file, relative_to)
        return d

    @classmethod
    def from_dict(cls, d: dict, where: str, directory: Path | None = None) -> "FailureState":
        """A state from a saved record (this schema, or one written before it had a version). `where` names the
        file (and line) for errors; `directory` is the folder of that file."""
        if not isinstance(d, dict):
            raise FailureStateError(f"{where}: not a failure state record; {_REDO}")
        version = d.get("version")
        if version is None:
            d = _from_unversioned(d, where, directory)
        elif version != SCHEMA_VERSION:
            raise FailureStateError(f"{where}: failure state schema version {version!r}, this reterm reads version "
                                    f"{SCHEMA_VERSION}; {_REDO}")
        known = {f.name for f in fields(cls)} - {"snapshot", "directory"}
        missing = {"id", "task_id", "history", "turn", "category"} - set(d)
        if missing:
            raise FailureStateError(f"{where}: failure state record lacks {', '.join(sorted(missing))}; {_REDO}")
        kw = {k: v for k, v in d.items() if k in known}
        if kw.get("exported") is not None:
            try:
                kw["exported"] = ExportedSnapshot(**kw["exported"])
            except TypeError as e:
                raise FailureStateError(f"{where}: bad `exported` entry ({e}); {_REDO}") from None
        _check_history(kw["history"], where)
        return cls(**kw, directory=directory)

    def save_dir(self, dest: Path) -> Path:
        """Saves the state as the folder `dest` (state.json + the live snapshot exported beside it), atomically."""
        dest = Path(dest)
        tmp = dest.with_name(f".{dest.name}.tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        record = self
        if self.snapshot is not None:
            name = self.snapshot.backend.export_snapshot(self.snapshot, tmp)
            exported = ExportedSnapshot(name, self.snapshot.backend.name, self.snapshot.spec.to_dict())
            record = replace(self, exported=exported, directory=dest, snapshot=None)
        elif self.exported is not None:
            raise FailureStateError(f"failure state {self.id}: its snapshot is already exported (to {self.directory})")
        (tmp / STATE_FILE).write_text(json.dumps(record.to_dict(), indent=1) + "\n")
        shutil.rmtree(dest, ignore_errors=True)
        os.replace(tmp, dest)
        self.exported, self.directory = record.exported, record.directory
        return dest

    @classmethod
    def load_dir(cls, path: Path) -> "FailureState":
        """The state saved in folder `path` by `save_dir` (or by the recovery benchmark before the schema had a
        version)."""
        f = Path(path) / STATE_FILE
        try:
            d = json.loads(f.read_text())
        except (OSError, ValueError) as e:
            raise FailureStateError(f"{f}: unreadable failure state ({e}); {_REDO}") from None
        return cls.from_dict(d, str(f), Path(path))


def load_jsonl(path: Path) -> list[FailureState]:
    """The failure states of a shard file (one record a line; bookkeeping rows, e.g. `skipped`, are passed over)."""
    path = Path(path)
    out = []
    try:
        text = path.read_bytes().decode()
    except UnicodeDecodeError as e:
        raise FailureStateError(f"{path}: not UTF-8 text ({e.reason} at byte {e.start}); {_REDO}") from None
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            d = json.loads(line)
        except ValueError as e:
            raise FailureStateError(f"{path}:{n}: not JSON ({e}); {_REDO}") from None
        if isinstance(d, dict) and d.get("skipped"):
            continue
        out.append(FailureState.from_dict(d, f"{path}:{n}", path.parent))
    return out


def _check_history(history, where: str) -> None:
    if (not isinstance(history, list) or not history or not all(isinstance(m, dict) and "role" in m and "content" in m
                                                                for m in history)):
        raise FailureStateError(f"{where}: `history` is not a list of chat messages; {_REDO}")
    if history[-1]["role"] != "user":
        raise FailureStateError(f"{where}: `history` must end with the failing turn's observation (a user message); "
                                f"{_REDO}")


def _from_unversioned(d: dict, where: str, directory: Path | None) -> dict:
    """Records written before the schema had a version: the benchmark's state.json (`category`, `history`,
    `snapshot_file`, `spec`), and the synthesize / collect shard rows (`error_category`, `messages`, `fork_turn`;
    collect's pointing at such a state.json through `state_dir`)."""
    if "snapshot_file" in d:  # recovery benchmark / collect: state.json
        try:
            exported = {"file": d["snapshot_file"], "backend": d["backend"], "spec": d["spec"]}
            history = d["history"]
        except KeyError as e:
            raise FailureStateError(f"{where}: old failure state without {e}; {_REDO}") from None
        evidence = history[-1]["content"][-EVIDENCE_CHARS:] if history and isinstance(history[-1], dict) else ""
        return {**{k: d[k] for k in ("id", "task_id", "task_path", "category", "turn", "family", "task_category",
                                     "format", "model") if k in d},
                "history": history, "evidence": evidence, "source": "collected", "exported": exported}
    if "error_category" in d:  # synthesize / collect shard row
        out = {"id": d.get("key"), "task_id": d.get("task_id"), "task_path": d.get("task_path"),
               "history": d.get("messages"), "turn": d.get("fork_turn"), "category": d["error_category"],
               "evidence": d.get("error_output", ""), "source": d.get("source", "synthesized")}
        out.update({k: d[k] for k in ("family", "task_category", "model", "steps", "perturbation", "seed") if k in d})
        if d.get("state_dir"):  # collect: the exported snapshot is described by the state.json in that folder
            state_dir = Path(d["state_dir"])
            if directory is not None and not state_dir.is_absolute():
                state_dir = directory / state_dir
            old = FailureState.load_dir(state_dir)
            out["exported"] = {"file": os.path.relpath(state_dir / old.exported.file, directory or Path.cwd()),
                               "backend": old.exported.backend, "spec": old.exported.spec}
        missing = [k for k in ("id", "task_id", "history", "turn") if out.get(k) is None]
        if missing:
            raise FailureStateError(f"{where}: old failure state row without {', '.join(missing)}; {_REDO}")
        return {k: v for k, v in out.items() if v is not None}
    raise FailureStateError(f"{where}: not a failure state record (no `version`); {_REDO}")
