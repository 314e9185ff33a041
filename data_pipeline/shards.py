"""Append-only, resumable record shards: the crash-safety layer every pipeline step writes through.

A step appends one JSON line per finished unit of work, each with a unique `key`, and flushes + fsyncs it. On
restart it reads the keys already there and skips them, so a killed step resumes where it stopped, loses nothing
and duplicates nothing. A line torn by the kill (the last line: no trailing newline, or not JSON) is dropped on open
and its unit redone. Any other line that is not a record means the file is not this step's shard (a user's file
given as `--out`, or one edited by hand): ShardError names it, and the file is left as it is.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path

from reterm.options import file_in_the_way


class ShardError(ValueError):
    """A path that cannot hold a shard, or a file that is not one; the message names the path (and line)."""


def check_path(path: str | Path) -> None:
    """ShardError when `path` cannot be a shard file: a directory, or a path under a file. Reads only."""
    path = Path(path)
    if path.is_dir():
        raise ShardError(f"{path} is a directory; a step's --out here is a file (JSONL), e.g. {path}/out.jsonl")
    if (blocking := file_in_the_way(path.parent)) is not None:
        raise ShardError(f"{path}: {blocking} is a file, not a folder")


def check(path: str | Path) -> set[str]:
    """The keys already in the shard at `path` (none when it does not exist yet); ShardError when it could not be
    opened as one (check_path, or a file whose lines are not a shard's). Writes nothing: for a step to call before
    its work starts."""
    check_path(path)
    return set(_read(Path(path))[0]) if Path(path).is_file() else set()


def _read(path: Path) -> tuple[dict[str, dict], list[str], bool]:
    """The records of a shard file by key (the first of a key kept), their lines, and whether the last line was torn."""
    records: dict[str, dict] = {}
    good: list[str] = []
    torn = False
    try:
        text = path.read_bytes().decode()
    except UnicodeDecodeError as e:
        raise ShardError(f"{path} is not a shard: not UTF-8 text ({e.reason} at byte {e.start}); give another --out "
                         f"or remove it") from None
    parts = text.split("\n")  # records end in "\n" (JSON escapes any inside); a torn last line does not
    lines = [x + "\n" for x in parts[:-1]] + ([parts[-1]] if parts[-1] else [])
    for n, line in enumerate(lines, 1):
        try:
            if not line.endswith("\n"):
                raise ValueError("torn line")
            rec = json.loads(line)
            key = rec["key"]
            if not isinstance(key, str):
                raise TypeError("a record's key is a string")
        except (ValueError, KeyError, TypeError):
            if n < len(lines):  # a stop tears only the last line
                raise ShardError(f"{path}:{n}: not a record of a step's shard (one JSON object with a `key` a "
                                 f"line); only a last line torn by a stop is dropped and redone. Give another --out, "
                                 f"or remove the line if the file is this step's own") from None
            torn = True
            continue
        if key not in records:
            records[key] = rec
            good.append(line)
    return records, good, torn


class Shard:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        check_path(self.path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self.records: dict[str, dict] = {}
        self._repair_and_load()
        self._f = self.path.open("a")

    def _repair_and_load(self) -> None:
        if not self.path.exists():
            return
        self.records, good, torn = _read(self.path)
        if torn:  # rewrite without the torn last line, atomically
            tmp = self.path.with_name(self.path.name + ".repair")
            tmp.write_text("".join(good))
            os.replace(tmp, self.path)

    def __contains__(self, key: str) -> bool:
        return key in self.records

    def append(self, record: dict) -> None:
        if not isinstance(record.get("key"), str):
            raise ValueError("every shard record needs a `key`, a string")
        line = json.dumps(record, sort_keys=True) + "\n"
        with self._lock:
            if record["key"] in self.records:
                return
            self._f.write(line)
            self._f.flush()
            os.fsync(self._f.fileno())
            self.records[record["key"]] = record

    def close(self) -> None:
        self._f.close()

    def __enter__(self) -> "Shard":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
