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
for name, content in {'raven': '2024-05-01 INFO job 384\n2024-05-02 INFO job 789\n2024-05-03 INFO job 228\n2024-05-04 INFO job 514\n2024-05-05 ERROR job 517\n2024-05-06 ERROR job 962\n2024-05-07 ERROR job 652\n2024-05-08 ERROR job 542\n', 'nova': '2024-05-01 INFO job 172\n2024-05-02 WARN job 717\n2024-05-03 INFO job 257\n2024-05-04 INFO job 248\n2024-05-05 WARN job 413\n2024-05-06 WARN job 598\n2024-05-07 INFO job 145\n2024-05-08 WARN job 331\n', 'sierra': '2024-05-01 ERROR job 790\n2024-05-02 WARN job 496\n2024-05-03 ERROR job 117\n2024-05-04 INFO job 850\n2024-05-05 INFO job 838\n2024-05-06 INFO job 457\n2024-05-07 INFO job 777\n2024-05-08 INFO job 212\n2024-05-09 INFO job 800\n2024-05-10 ERROR job 775\n'}.items():
    if read(f"/app/logs/{name}.log") != content:
        fail(f"/app/logs/{name}.log was changed")
want = 'nova: errors=0 warnings=4\nraven: errors=4 warnings=0\nsierra: errors=3 warnings=1\nfiles=3 errors=7 warnings=5\n'
if read("/app/summary.txt") != want:
    fail("/app/summary.txt is not the script's complete output")
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
