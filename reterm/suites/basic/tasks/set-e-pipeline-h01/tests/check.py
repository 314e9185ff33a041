import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import re, subprocess
for name, content in {'sierra': '2024-05-01 WARN job 167\n2024-05-02 INFO job 137\n2024-05-03 WARN job 214\n2024-05-04 INFO job 934\n2024-05-05 ERROR job 536\n2024-05-06 INFO job 725\n2024-05-07 INFO job 697\n', 'orbit': '2024-05-01 INFO job 146\n2024-05-02 INFO job 133\n2024-05-03 INFO job 320\n2024-05-04 WARN job 493\n2024-05-05 ERROR job 244\n2024-05-06 WARN job 865\n2024-05-07 INFO job 816\n2024-05-08 WARN job 561\n2024-05-09 INFO job 188\n2024-05-10 ERROR job 706\n', 'alpha': '2024-05-01 INFO job 783\n2024-05-02 INFO job 311\n2024-05-03 INFO job 553\n2024-05-04 INFO job 392\n2024-05-05 INFO job 894\n'}.items():
    if read(f"/app/logs/{name}.log") != content:
        fail(f"/app/logs/{name}.log was changed")
want = 'alpha: errors=0 warnings=0\norbit: errors=2 warnings=3\nsierra: errors=1 warnings=2\nfiles=3 errors=3 warnings=5\n'
if read("/app/summary.txt") != want:
    fail("/app/summary.txt is not the script's complete output")
opts = " ".join(m.group(1) for m in re.finditer(r"^\s*set\s+([^#\n]*)", read("/app/summary.sh"), re.M))
flags = "".join(t[1:] for t in opts.split() if t.startswith("-") and not t.startswith("--"))
if not ("e" in flags or "errexit" in opts) or not ("u" in flags or "nounset" in opts) \
        or "pipefail" not in opts or re.search(r"(^|\s)\+\w*[eu]|\+o", opts):
    fail("/app/summary.sh must keep set -euo pipefail")
env = {k: v for k, v in os.environ.items() if k != "LOG_DIR"}
try:
    res = subprocess.run(["bash", "/app/summary.sh"], capture_output=True, text=True, timeout=30, env=env)
except subprocess.TimeoutExpired:
    fail("/app/summary.sh hangs")
if res.returncode != 0 or res.stderr or res.stdout != want:
    fail(f"bash /app/summary.sh exits {res.returncode} with stderr {res.stderr[-300:]!r} "
         f"and does not print the full summary")
print("PASS")
