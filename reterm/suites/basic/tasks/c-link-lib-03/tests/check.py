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
for path, digest in {'/app/src/main.c': '79d04c8bd2bffdde1baa56a17f2e469b1ff98e5ad80bb178e1ea278f3dfcdb24', '/app/src/weights.c': '1352c449b858739ca21c60985649b9ad024c52bd63e754a342a86cb573bf776e', '/app/include/juniper/weights.h': 'd94dfdec3c3599364b2c94ce1565c558890d56ab62972ad16bd4fc6c7f30fa18', '/app/data/values.txt': '3d7b34f125a5d2a20221b95298074345aba548227d922069c3316a7de748c577'}.items():
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
    if r.stdout != 'nova 36 -> 155 1.0 5\nnova 58 -> 243 2.0 8\nnova 234 -> 947 3.0 33\nnova 238 -> 963 0.0 34\nnova 20 -> 91 6.0 3\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'nova 36 -> 155 1.0 5\nnova 58 -> 243 2.0 8\nnova 234 -> 947 3.0 33\nnova 238 -> 963 0.0 34\nnova 20 -> 91 6.0 3\n'")

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
