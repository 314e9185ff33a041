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
for name, content in {'harbor': '2024-05-01 INFO job 585\n2024-05-02 ERROR job 505\n2024-05-03 INFO job 401\n2024-05-04 ERROR job 812\n2024-05-05 WARN job 174\n2024-05-06 ERROR job 206\n2024-05-07 INFO job 709\n2024-05-08 INFO job 633\n2024-05-09 INFO job 913\n2024-05-10 WARN job 664\n2024-05-11 INFO job 476\n', 'raven': '2024-05-01 INFO job 345\n2024-05-02 INFO job 834\n2024-05-03 INFO job 422\n2024-05-04 ERROR job 669\n2024-05-05 INFO job 232\n2024-05-06 ERROR job 204\n2024-05-07 ERROR job 290\n2024-05-08 INFO job 625\n', 'fjord': '2024-05-01 INFO job 598\n2024-05-02 INFO job 889\n2024-05-03 WARN job 137\n2024-05-04 INFO job 679\n2024-05-05 INFO job 118\n', 'kepler': '2024-05-01 WARN job 174\n2024-05-02 INFO job 400\n2024-05-03 ERROR job 831\n2024-05-04 ERROR job 865\n2024-05-05 WARN job 457\n2024-05-06 INFO job 371\n2024-05-07 INFO job 123\n2024-05-08 WARN job 732\n2024-05-09 WARN job 347\n2024-05-10 INFO job 200\n2024-05-11 ERROR job 693\n'}.items():
    if read(f"/app/logs/{name}.log") != content:
        fail(f"/app/logs/{name}.log was changed")
want = 'fjord: errors=0 warnings=1\nharbor: errors=3 warnings=2\nkepler: errors=3 warnings=4\nraven: errors=3 warnings=0\nfiles=4 errors=9 warnings=7\n'
if read("/app/log_report.txt") != want:
    fail("/app/log_report.txt is not the script's complete output")
opts = " ".join(m.group(1) for m in re.finditer(r"^\s*set\s+([^#\n]*)", read("/app/triage.sh"), re.M))
flags = "".join(t[1:] for t in opts.split() if t.startswith("-") and not t.startswith("--"))
if not ("e" in flags or "errexit" in opts) or not ("u" in flags or "nounset" in opts) \
        or "pipefail" not in opts or re.search(r"(^|\s)\+\w*[eu]|\+o", opts):
    fail("/app/triage.sh must keep set -euo pipefail")
env = {k: v for k, v in os.environ.items() if k != "LOG_DIR"}
try:
    res = subprocess.run(["bash", "/app/triage.sh"], capture_output=True, text=True, timeout=30, env=env)
except subprocess.TimeoutExpired:
    fail("/app/triage.sh hangs")
if res.returncode != 0 or res.stderr or res.stdout != want:
    fail(f"bash /app/triage.sh exits {res.returncode} with stderr {res.stderr[-300:]!r} "
         f"and does not print the full summary")
print("PASS")
