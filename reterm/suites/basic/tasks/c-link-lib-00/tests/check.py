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
for path, digest in {'/app/src/main.c': 'c74fc563a1ef68220376aee04ae29d5635c70d983f369b5337f80f9e17ec38d0', '/app/src/pricing.c': 'f420bc0e60a05428b8b3cef991c70b6dfc8adfd70dd66acfdaa156faa5b21349', '/app/include/pixel/pricing.h': 'cb178f55ac4c4e87ce6e4cd306d78a39b1e911e7039993fffda9819a222894f7', '/app/data/values.txt': '6ead8c70c6f0b1284b7ab01ff90fddc01b31d228bc022bf5205ac92a8a122b7f'}.items():
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
    if r.stdout != 'orbit 46 -> 214 2.0 12\norbit 186 -> 774 2.0 47\norbit 99 -> 426 3.0 25\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'orbit 46 -> 214 2.0 12\norbit 186 -> 774 2.0 47\norbit 99 -> 426 3.0 25\n'")

if not os.path.isfile("/app/bin/pixel"):
    fail("/app/bin/pixel was not built")
output("/app/bin/pixel")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/pixel"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/pixel")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
