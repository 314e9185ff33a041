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
for path, digest in {'/app/src/main.c': '77dcc8863e2c63a26513f1585b309c90835612e572dfd59c4264926d7985b621', '/app/src/metrics.c': 'e4399b524a159c606122bc19b1fec167a39dac4def44aa5e3dadaabc1cc58492', '/app/lib/metrics/metrics.h': 'aae645530a8420b1045071d1837800a62a528b0c214d3b0ae572a62c7e9e27b2', '/app/data/values.txt': 'f31b6f8d22e10802e4bf3ab5b813f624eba475f585a397066c9892142718eae8'}.items():
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
    if r.stdout != 'sierra 127 -> 929 1.0\nsierra 49 -> 383 1.0\nsierra 70 -> 530 1.0\nsierra 7 -> 89 1.0\nsierra 240 -> 1720 0.0\nsierra 276 -> 1972 0.0\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'sierra 127 -> 929 1.0\nsierra 49 -> 383 1.0\nsierra 70 -> 530 1.0\nsierra 7 -> 89 1.0\nsierra 240 -> 1720 0.0\nsierra 276 -> 1972 0.0\n'")

if not os.path.isfile("/app/bin/juniper"):
    fail("/app/bin/juniper was not built")
output("/app/bin/juniper")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/juniper"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/juniper")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
