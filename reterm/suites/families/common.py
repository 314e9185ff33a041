"""What every family generator shares: the verifier entry point, the Dockerfile, and small writers for check.py and
solve.sh. A family module imports these; nothing here knows any family."""

from __future__ import annotations

import hashlib
import textwrap

from reterm.sandbox.images import BASE_TAG

TEST_SH = """\
#!/bin/bash
# Verifier entry point: 1 when /tests/check.py accepts the final state, else 0.
mkdir -p /logs/verifier
if python3 /tests/check.py; then
  echo 1 > /logs/verifier/reward.txt
else
  echo 0 > /logs/verifier/reward.txt
fi
"""

# Every family starts from the offline base image with its files under /app.
DOCKERFILE = f"FROM {BASE_TAG}\nWORKDIR /app\nCOPY files/ /app/\n"

WORDS = ["alpha", "bravo", "cedar", "delta", "ember", "fjord", "gamma", "harbor", "indigo", "juniper", "kepler",
         "lumen", "maple", "nova", "orbit", "pixel", "quartz", "raven", "sierra", "tango", "umber", "vertex"]


def d(s: str) -> str:
    """Dedent a triple-quoted block and drop its first newline."""
    return textwrap.dedent(s).lstrip("\n")


def check_py(body: str) -> str:
    """A check.py: `fail(msg)` and `read(path)` defined, then `body` at top level, then PASS. A body whose first line
    is still indented after dedenting would land inside `read()` (after its return) and never run: refused."""
    body = d(body)
    if body[:1].isspace():
        raise ValueError(f"check_py: the body's first line is indented after dedenting: {body.splitlines()[0]!r}")
    return d("""
        import hashlib, json, os, sys

        def fail(msg):
            print("FAIL:", msg)
            sys.exit(1)

        def read(path):
            if not os.path.isfile(path):
                fail(f"{path} does not exist")
            with open(path) as f:
                return f.read()

        """) + body + 'print("PASS")\n'


def write_file_solution(path: str, content: str, then: str = "") -> str:
    """A solve.sh that writes `content` to `path` with a heredoc, then runs `then` if given."""
    lines = ["#!/bin/bash", "set -e", f"cat > {path} <<'EOF'", content.strip("\n"), "EOF"] + ([then] if then else [])
    return "\n".join(lines) + "\n"


def sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


