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
for name, content in {'cedar': '2024-05-01 INFO job 744\n2024-05-02 WARN job 191\n2024-05-03 WARN job 630\n2024-05-04 INFO job 586\n2024-05-05 INFO job 249\n2024-05-06 WARN job 947\n2024-05-07 WARN job 956\n2024-05-08 INFO job 261\n2024-05-09 INFO job 516\n', 'quartz': '2024-05-01 ERROR job 908\n2024-05-02 INFO job 940\n2024-05-03 WARN job 358\n2024-05-04 INFO job 159\n2024-05-05 WARN job 834\n2024-05-06 WARN job 818\n', 'fjord': '2024-05-01 WARN job 216\n2024-05-02 ERROR job 217\n2024-05-03 WARN job 654\n2024-05-04 INFO job 597\n2024-05-05 INFO job 349\n2024-05-06 ERROR job 230\n2024-05-07 INFO job 667\n2024-05-08 ERROR job 738\n2024-05-09 WARN job 986\n2024-05-10 WARN job 202\n2024-05-11 INFO job 947\n', 'kepler': '2024-05-01 INFO job 161\n2024-05-02 INFO job 992\n2024-05-03 INFO job 444\n2024-05-04 ERROR job 497\n2024-05-05 ERROR job 886\n2024-05-06 INFO job 529\n'}.items():
    if read(f"/app/logs/{name}.log") != content:
        fail(f"/app/logs/{name}.log was changed")
want = 'cedar: errors=0 warnings=4\nfjord: errors=3 warnings=4\nkepler: errors=2 warnings=0\nquartz: errors=1 warnings=3\nfiles=4 errors=6 warnings=11\n'
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
