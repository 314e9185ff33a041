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
for path, digest in {'/app/src/main.c': 'ee9a79ea476128850d7df08ee13368600c1f3448c9094f9ee26d919ebef98c0d', '/app/src/weights.c': '824aaf6a306c871d4973537f15ca782746e9f5e8c946919d7f411ccaba93b33f', '/app/lib/weights/weights.h': '02e0222224bfde8da3d69025515d73bfadc59d9651892fad1a1bee2ff170159d', '/app/data/values.txt': '1e5f3ca32f475ca3c27d8481de82f775e301e3af5c1b0255ad180bdf8e050c58'}.items():
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
    if r.stdout != 'umber 382 -> 2303 4.0 55\number 224 -> 1355 0.0 32\number 284 -> 1715 4.0 41\number 142 -> 863 2.0 20\number 257 -> 1553 5.0 37\number 318 -> 1919 3.0 45\number 150 -> 911 3.0 21\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'umber 382 -> 2303 4.0 55\number 224 -> 1355 0.0 32\number 284 -> 1715 4.0 41\number 142 -> 863 2.0 20\number 257 -> 1553 5.0 37\number 318 -> 1919 3.0 45\number 150 -> 911 3.0 21\n'")

if not os.path.isfile("/app/bin/ravencalc"):
    fail("/app/bin/ravencalc was not built")
output("/app/bin/ravencalc")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/ravencalc"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/ravencalc")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
