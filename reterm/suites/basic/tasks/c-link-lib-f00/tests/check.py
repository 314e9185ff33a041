import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import shutil, subprocess, tempfile
for path, digest in {'/app/src/main.c': 'f844aa47ae793cda114dfe4c4f9dd34aca1f4df1b4728c4137e648f1b89bec1e', '/app/src/pricing.c': '75cb76cc8a06ef075e0acb6f371a9e9c36cb6140190d117a142032bd7cc28171', '/app/lib/pricing/pricing.h': '2759e0b821faf8c89c9f6ce3a63519160d2f1023f5c4b6c88b54729ddf4a5c1e', '/app/data/values.txt': '70ad0a52a8c4ca294b34a3944fc5f829b47676abd5575ea57801bfc6e287ef77'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")

def output(binary):
    with open(binary, "rb") as f:
        if f.read(4) != b"\x7fELF":
            fail(f"{binary} is not a compiled program")
    try:
        r = subprocess.run([binary], cwd="/app", capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired) as e:
        fail(f"{binary} does not run: {e}")
    if r.stdout != 'vertex 78 -> 734 16\nvertex 180 -> 1652 36\nvertex 197 -> 1805 39\nvertex 335 -> 3047 67\nvertex 43 -> 419 9\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'vertex 78 -> 734 16\nvertex 180 -> 1652 36\nvertex 197 -> 1805 39\nvertex 335 -> 3047 67\nvertex 43 -> 419 9\n'")

if not os.path.isfile("/app/bin/harborcalc"):
    fail("/app/bin/harborcalc was not built")
output("/app/bin/harborcalc")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/harborcalc"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/harborcalc")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
