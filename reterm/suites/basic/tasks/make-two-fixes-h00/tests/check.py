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
for path, digest in {'/app/src/main.c': '9ab4a2da207dea883c6f713ee91feb7bac59ed58efbe1ba5cf7836b2a45fa5e5', '/app/src/metrics.c': 'a185111154b20138f483238d31faf90b2c46c6feb26d7242ddccd029ab401d5a', '/app/include/metrics.h': 'b71c082528f219556d6c21c05e4316b2af37946699418591e367e8ba30d6f265', '/app/data/values.txt': 'f8d312f0fab868a097fa4b9274ef46dd41f587ce19941de868e7fb2a413f3a62'}.items():
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
    if r.stdout != 'fjord 214 -> 1084 7.0 14.629\nfjord 326 -> 1644 2.0 18.055\nfjord 196 -> 994 7.0 14.000\nfjord 61 -> 319 7.0 7.810\nfjord 326 -> 1644 2.0 18.055\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'fjord 214 -> 1084 7.0 14.629\nfjord 326 -> 1644 2.0 18.055\nfjord 196 -> 994 7.0 14.000\nfjord 61 -> 319 7.0 7.810\nfjord 326 -> 1644 2.0 18.055\n'")

if not os.path.isfile("/app/bin/tangocalc"):
    fail("/app/bin/tangocalc was not built")
output("/app/bin/tangocalc")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/tangocalc"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/tangocalc")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
