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
for path, digest in {'/app/src/main.c': 'c58881ac51c89e3b2ed62756675272dbc6ecb08cde42bbd7106dec69476ee5c6', '/app/src/weights.c': '29450af67ed431ea0485c655a2c041b63a100e9df237751944bbc3b3bbbd0201', '/app/lib/weights/weights.h': 'c07dda9affd31801057025838144e2f44793571ad052c17af2f3124bdfa33dc2', '/app/data/values.txt': '88018e7362649febeee89fe81397bd996a0b1f18d1234d87a86304159f942166'}.items():
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
    if r.stdout != 'quartz 379 -> 3057 19.468\nquartz 30 -> 265 5.477\nquartz 48 -> 409 6.928\nquartz 45 -> 385 6.708\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'quartz 379 -> 3057 19.468\nquartz 30 -> 265 5.477\nquartz 48 -> 409 6.928\nquartz 45 -> 385 6.708\n'")

if not os.path.isfile("/app/bin/umbercalc"):
    fail("/app/bin/umbercalc was not built")
output("/app/bin/umbercalc")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/umbercalc"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/umbercalc")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
