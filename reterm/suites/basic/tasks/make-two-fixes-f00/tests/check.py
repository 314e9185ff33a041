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
for path, digest in {'/app/src/main.c': 'a6921bcca000e1e378274ee656f7c7bdc3258e79d6f34f4e4735fe5b83c75ecd', '/app/src/scoring.c': '69b6fa33328bc36de25023c27754abb02e3df4411b3b6517171971b7e7bd7eac', '/app/lib/scoring/scoring.h': 'f9ec8f9b3431a6adf0170c5515a781fe23622fae09706087e3cf635ef6aa1668', '/app/data/values.txt': '7cdc92d1496fc67c11bfd83ec30319a6a04eda5801772217a95868c7cbf037dd'}.items():
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
    if r.stdout != 'raven 272 -> 824 2.0\nraven 254 -> 770 2.0\nraven 88 -> 272 1.0\nraven 253 -> 767 1.0\nraven 176 -> 536 2.0\nraven 333 -> 1007 0.0\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'raven 272 -> 824 2.0\nraven 254 -> 770 2.0\nraven 88 -> 272 1.0\nraven 253 -> 767 1.0\nraven 176 -> 536 2.0\nraven 333 -> 1007 0.0\n'")

if not os.path.isfile("/app/bin/alphacalc"):
    fail("/app/bin/alphacalc was not built")
output("/app/bin/alphacalc")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/alphacalc"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/alphacalc")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
