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
for path, digest in {'/app/src/main.c': 'ead9ab78873e30999c7b68b1af48bf7e81919d716bc570401efc55465d96faae', '/app/src/pricing.c': 'b1525b868fe8984e39ba4f27c38a2bc0c00b6ddda633a61259a9b3da9b2c623c', '/app/lib/pricing/pricing.h': '3183418b4b39f32d082d2beb38dd48d7d99cc96f83545ae5c00038d294aa9053', '/app/data/values.txt': '700ffaefcf0d5db9e30c44c93ad5bc51db2d85c7495fb65d5d315f8fb7e6da5c'}.items():
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
    if r.stdout != 'delta 35 -> 213 4 8.0\ndelta 243 -> 1253 27 0.0\ndelta 87 -> 473 10 6.0\ndelta 86 -> 468 10 5.0\ndelta 111 -> 593 12 3.0\ndelta 350 -> 1788 39 8.0\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'delta 35 -> 213 4 8.0\ndelta 243 -> 1253 27 0.0\ndelta 87 -> 473 10 6.0\ndelta 86 -> 468 10 5.0\ndelta 111 -> 593 12 3.0\ndelta 350 -> 1788 39 8.0\n'")

if not os.path.isfile("/app/bin/sierractl"):
    fail("/app/bin/sierractl was not built")
output("/app/bin/sierractl")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/sierractl"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/sierractl")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
