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
for name, content in {'fjord': '2024-05-01 ERROR job 795\n2024-05-02 INFO job 142\n2024-05-03 INFO job 909\n2024-05-04 INFO job 835\n2024-05-05 INFO job 242\n2024-05-06 INFO job 131\n2024-05-07 INFO job 235\n', 'bravo': '2024-05-01 INFO job 546\n2024-05-02 INFO job 990\n2024-05-03 WARN job 223\n2024-05-04 ERROR job 556\n2024-05-05 WARN job 211\n2024-05-06 WARN job 962\n2024-05-07 INFO job 623\n', 'maple': '2024-05-01 INFO job 650\n2024-05-02 WARN job 111\n2024-05-03 WARN job 779\n2024-05-04 WARN job 297\n2024-05-05 INFO job 187\n2024-05-06 INFO job 701\n2024-05-07 WARN job 946\n'}.items():
    if read(f"/app/logs/{name}.log") != content:
        fail(f"/app/logs/{name}.log was changed")
want = 'bravo: errors=1 warnings=3\nfjord: errors=1 warnings=0\nmaple: errors=0 warnings=4\nfiles=3 errors=2 warnings=7\n'
if read("/app/counts.txt") != want:
    fail("/app/counts.txt is not the script's complete output")
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
