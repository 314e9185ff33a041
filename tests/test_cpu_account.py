"""RETERM_TEST_CPU_LOG: each test's CPU, its own and its child processes', one JSON line a test."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_each_test_appends_its_own_and_its_childrens_cpu(tmp_path):
    burn = "import time\\nt = time.process_time()\\nwhile time.process_time() - t < 0.4: pass"
    (tmp_path / "test_burn.py").write_text(
        "import subprocess, sys\n\n"
        f"def test_child():\n    subprocess.run([sys.executable, '-c', '{burn}'], check=True)\n\n"
        "def test_idle():\n    pass\n")
    log = tmp_path / "cpu.jsonl"
    r = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "cpu_account",
                        str(tmp_path)],
                       cwd=tmp_path, capture_output=True, text=True, timeout=300,
                       env={**os.environ, "RETERM_TEST_CPU_LOG": str(log),
                            "PYTHONPATH": str(ROOT / "tests")})
    assert r.returncode == 0, r.stdout + r.stderr
    rows = {row["test"].split("::")[1]: row for row in map(json.loads, log.read_text().splitlines())}
    assert set(rows) == {"test_child", "test_idle"}
    child, idle = rows["test_child"], rows["test_idle"]
    assert child["children"] >= 0.3 and child["cpu"] >= child["children"] + child["self"] - 0.01
    assert idle["children"] < 0.1 and child["pid"] == idle["pid"]
    from cpu_account import summarise

    text = summarise(str(log))
    assert text.startswith("2 tests") and text.index("test_child") < text.index("test_idle")
