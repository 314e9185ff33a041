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
for name, content in {'sierra': '2024-05-01 INFO job 170\n2024-05-02 INFO job 435\n2024-05-03 INFO job 743\n2024-05-04 WARN job 150\n2024-05-05 WARN job 960\n2024-05-06 INFO job 675\n2024-05-07 ERROR job 116\n2024-05-08 INFO job 490\n', 'raven': '2024-05-01 WARN job 449\n2024-05-02 INFO job 130\n2024-05-03 ERROR job 268\n2024-05-04 WARN job 486\n2024-05-05 INFO job 308\n2024-05-06 ERROR job 564\n2024-05-07 ERROR job 824\n2024-05-08 INFO job 884\n2024-05-09 ERROR job 389\n2024-05-10 INFO job 623\n2024-05-11 INFO job 582\n', 'lumen': '2024-05-01 INFO job 249\n2024-05-02 INFO job 876\n2024-05-03 INFO job 635\n2024-05-04 INFO job 926\n2024-05-05 INFO job 526\n2024-05-06 INFO job 207\n', 'umber': '2024-05-01 INFO job 166\n2024-05-02 WARN job 387\n2024-05-03 INFO job 468\n2024-05-04 INFO job 974\n2024-05-05 WARN job 482\n2024-05-06 INFO job 112\n2024-05-07 INFO job 615\n2024-05-08 ERROR job 481\n2024-05-09 INFO job 361\n2024-05-10 ERROR job 237\n', 'pixel': '2024-05-01 INFO job 935\n2024-05-02 INFO job 296\n2024-05-03 INFO job 449\n2024-05-04 ERROR job 771\n2024-05-05 WARN job 519\n2024-05-06 INFO job 210\n2024-05-07 INFO job 170\n2024-05-08 INFO job 495\n'}.items():
    if read(f"/app/logs/{name}.log") != content:
        fail(f"/app/logs/{name}.log was changed")
want = 'lumen: errors=0 warnings=0\npixel: errors=1 warnings=1\nraven: errors=4 warnings=2\nsierra: errors=1 warnings=2\number: errors=2 warnings=2\nfiles=5 errors=8 warnings=7\n'
if read("/app/counts.txt") != want:
    fail("/app/counts.txt is not the script's complete output")
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
