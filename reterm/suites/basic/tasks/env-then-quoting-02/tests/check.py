import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import subprocess, tempfile
if read("/app/out/summary.txt") != 'delta minutes: 8 lines\norbit: 8 lines\nquartz draft 2: 9 lines\n':
    fail("/app/out/summary.txt is wrong")
# the repaired script must still read its inbox from $DOCS_DIR, and cope with any name
tmp = tempfile.mkdtemp()
for name, lines in [("a b  c", 2), ("d-e f", 1), ("g", 3)]:
    with open(os.path.join(tmp, name + ".txt"), "w") as f:
        f.write("x\n" * lines)
r = subprocess.run(["bash", "/app/run.sh"], env={**os.environ, "DOCS_DIR": tmp}, capture_output=True,
                   text=True, timeout=30)
if r.returncode != 0 or read("/app/out/summary.txt") != "a b  c: 2 lines\nd-e f: 1 lines\ng: 3 lines\n":
    fail("run.sh does not summarise an inbox with spaces in its names correctly: " + r.stderr[-300:])
print("PASS")
