"""Append-only, resumable record shards: the crash-safety layer every pipeline step writes through.

A step appends one JSON line per finished unit of work, each with a unique `key`, and flushes + fsyncs it. On
restart it reads the keys already there and skips them, so a killed step resumes where it stopped, loses nothing
and duplicates nothing. A line torn by the kill (no trailing newline, or not JSON) is dropped on open and its unit
redone.
"""

from __future__ import annotations

import json
import os
import threading
from pathlib import Path


class Shard:
    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self.records: dict[str, dict] = {}
        self._repair_and_load()
        self._f = self.path.open("a")

    def _repair_and_load(self) -> None:
        if not self.path.exists():
            return
        good: list[str] = []
        torn = False
        with self.path.open() as f:
            for line in f:
                try:
                    if not line.endswith("\n"):
                        raise ValueError("torn line")
                    rec = json.loads(line)
                    key = rec["key"]
                except (ValueError, KeyError, TypeError):
                    torn = True
                    continue
                if key not in self.records:
                    self.records[key] = rec
                    good.append(line)
        if torn:  # rewrite without the damaged lines, atomically
            tmp = self.path.with_name(self.path.name + ".repair")
            tmp.write_text("".join(good))
            os.replace(tmp, self.path)

    def __contains__(self, key: str) -> bool:
        return key in self.records

    def append(self, record: dict) -> None:
        if "key" not in record:
            raise ValueError("every shard record needs a `key`")
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
