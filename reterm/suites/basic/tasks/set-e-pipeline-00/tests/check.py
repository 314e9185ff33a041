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
for name, content in {'orbit': '2024-05-01 INFO job 792\n2024-05-02 INFO job 896\n2024-05-03 ERROR job 371\n2024-05-04 INFO job 342\n2024-05-05 INFO job 217\n2024-05-06 INFO job 639\n', 'umber': '2024-05-01 WARN job 205\n2024-05-02 INFO job 992\n2024-05-03 INFO job 185\n2024-05-04 WARN job 992\n2024-05-05 ERROR job 226\n2024-05-06 INFO job 238\n', 'raven': '2024-05-01 ERROR job 956\n2024-05-02 INFO job 748\n2024-05-03 INFO job 135\n2024-05-04 ERROR job 272\n2024-05-05 ERROR job 429\n2024-05-06 WARN job 328\n', 'alpha': '2024-05-01 INFO job 621\n2024-05-02 WARN job 327\n2024-05-03 WARN job 118\n2024-05-04 WARN job 517\n2024-05-05 INFO job 935\n', 'ember': '2024-05-01 WARN job 729\n2024-05-02 WARN job 952\n2024-05-03 ERROR job 500\n2024-05-04 ERROR job 381\n2024-05-05 INFO job 580\n2024-05-06 ERROR job 253\n2024-05-07 WARN job 994\n2024-05-08 WARN job 822\n2024-05-09 ERROR job 585\n2024-05-10 INFO job 406\n'}.items():
    if read(f"/app/logs/{name}.log") != content:
        fail(f"/app/logs/{name}.log was changed")
want = 'alpha: errors=0 warnings=3\nember: errors=4 warnings=4\norbit: errors=1 warnings=0\nraven: errors=3 warnings=1\number: errors=1 warnings=2\nfiles=5 errors=9 warnings=10\n'
if read("/app/log_report.txt") != want:
    fail("/app/log_report.txt is not the script's complete output")
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
