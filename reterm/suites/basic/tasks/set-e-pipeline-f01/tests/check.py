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
for name, content in {'tango': '2024-05-01 WARN job 104\n2024-05-02 INFO job 641\n2024-05-03 WARN job 226\n2024-05-04 INFO job 631\n2024-05-05 INFO job 770\n2024-05-06 WARN job 592\n2024-05-07 ERROR job 858\n2024-05-08 WARN job 612\n2024-05-09 ERROR job 119\n2024-05-10 ERROR job 804\n2024-05-11 INFO job 425\n2024-05-12 INFO job 970\n', 'ember': '2024-05-01 INFO job 233\n2024-05-02 WARN job 565\n2024-05-03 INFO job 454\n2024-05-04 ERROR job 820\n2024-05-05 WARN job 706\n2024-05-06 ERROR job 468\n2024-05-07 ERROR job 960\n2024-05-08 INFO job 309\n2024-05-09 WARN job 534\n2024-05-10 INFO job 192\n2024-05-11 WARN job 468\n2024-05-12 INFO job 472\n2024-05-13 INFO job 278\n', 'cedar': '2024-05-01 WARN job 394\n2024-05-02 INFO job 308\n2024-05-03 INFO job 634\n2024-05-04 INFO job 338\n2024-05-05 INFO job 130\n2024-05-06 INFO job 991\n2024-05-07 INFO job 226\n2024-05-08 WARN job 592\n', 'harbor': '2024-05-01 ERROR job 643\n2024-05-02 INFO job 815\n2024-05-03 ERROR job 587\n2024-05-04 ERROR job 488\n2024-05-05 INFO job 848\n2024-05-06 INFO job 843\n2024-05-07 ERROR job 302\n2024-05-08 INFO job 640\n'}.items():
    if read(f"/app/logs/{name}.log") != content:
        fail(f"/app/logs/{name}.log was changed")
want = 'cedar: errors=0 warnings=2\nember: errors=3 warnings=4\nharbor: errors=4 warnings=0\ntango: errors=3 warnings=4\nfiles=4 errors=10 warnings=10\n'
if read("/app/summary.txt") != want:
    fail("/app/summary.txt is not the script's complete output")
opts = " ".join(m.group(1) for m in re.finditer(r"^\s*set\s+([^#\n]*)", read("/app/logstat.sh"), re.M))
flags = "".join(t[1:] for t in opts.split() if t.startswith("-") and not t.startswith("--"))
if not ("e" in flags or "errexit" in opts) or not ("u" in flags or "nounset" in opts) \
        or "pipefail" not in opts or re.search(r"(^|\s)\+\w*[eu]|\+o", opts):
    fail("/app/logstat.sh must keep set -euo pipefail")
env = {k: v for k, v in os.environ.items() if k != "LOG_DIR"}
try:
    res = subprocess.run(["bash", "/app/logstat.sh"], capture_output=True, text=True, timeout=30, env=env)
except subprocess.TimeoutExpired:
    fail("/app/logstat.sh hangs")
if res.returncode != 0 or res.stderr or res.stdout != want:
    fail(f"bash /app/logstat.sh exits {res.returncode} with stderr {res.stderr[-300:]!r} "
         f"and does not print the full summary")
print("PASS")
