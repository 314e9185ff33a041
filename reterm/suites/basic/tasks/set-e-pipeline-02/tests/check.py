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
for name, content in {'orbit': '2024-05-01 ERROR job 931\n2024-05-02 ERROR job 891\n2024-05-03 ERROR job 769\n2024-05-04 INFO job 619\n2024-05-05 INFO job 239\n2024-05-06 ERROR job 365\n2024-05-07 INFO job 477\n2024-05-08 INFO job 174\n2024-05-09 INFO job 786\n', 'pixel': '2024-05-01 WARN job 766\n2024-05-02 ERROR job 783\n2024-05-03 WARN job 466\n2024-05-04 INFO job 351\n2024-05-05 INFO job 291\n2024-05-06 WARN job 181\n2024-05-07 INFO job 349\n2024-05-08 INFO job 330\n2024-05-09 WARN job 596\n2024-05-10 INFO job 864\n2024-05-11 ERROR job 264\n', 'maple': '2024-05-01 ERROR job 104\n2024-05-02 INFO job 745\n2024-05-03 ERROR job 731\n2024-05-04 WARN job 276\n2024-05-05 ERROR job 744\n2024-05-06 ERROR job 570\n2024-05-07 INFO job 381\n', 'indigo': '2024-05-01 INFO job 233\n2024-05-02 INFO job 159\n2024-05-03 WARN job 790\n2024-05-04 INFO job 598\n2024-05-05 WARN job 158\n2024-05-06 WARN job 692\n2024-05-07 INFO job 654\n2024-05-08 INFO job 828\n2024-05-09 INFO job 581\n', 'juniper': '2024-05-01 INFO job 302\n2024-05-02 ERROR job 715\n2024-05-03 ERROR job 141\n2024-05-04 WARN job 373\n2024-05-05 INFO job 200\n2024-05-06 ERROR job 133\n2024-05-07 WARN job 954\n2024-05-08 ERROR job 720\n'}.items():
    if read(f"/app/logs/{name}.log") != content:
        fail(f"/app/logs/{name}.log was changed")
want = 'indigo: errors=0 warnings=3\njuniper: errors=4 warnings=2\nmaple: errors=4 warnings=1\norbit: errors=4 warnings=0\npixel: errors=2 warnings=4\nfiles=5 errors=14 warnings=10\n'
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
