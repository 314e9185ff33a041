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
for path, digest in {'/app/src/main.c': 'c59d3fb19f7f6c355be6d19aaebed92363de50c81e57ebd04b2a75998eabd86d', '/app/src/pricing.c': '3b044e66a368e7db272d0c6b9076c3cd836946f19bf31a0c50e8cf5349ec6247', '/app/src/include/pricing.h': '77cfd6aa4a088fe72cd2defc375e299a2ae326f0a30398f74d220c7609c4e3ca', '/app/data/values.txt': '59599f9095c798830caccb523f5db8b7374bf394965493c2bbeeef4236bb609e'}.items():
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
    if r.stdout != 'tango 126 -> 924 16\ntango 119 -> 875 15\ntango 196 -> 1414 25\ntango 200 -> 1442 25\ntango 285 -> 2037 36\ntango 97 -> 721 12\ntango 331 -> 2359 41\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'tango 126 -> 924 16\ntango 119 -> 875 15\ntango 196 -> 1414 25\ntango 200 -> 1442 25\ntango 285 -> 2037 36\ntango 97 -> 721 12\ntango 331 -> 2359 41\n'")

if not os.path.isfile("/app/bin/embercalc"):
    fail("/app/bin/embercalc was not built")
output("/app/bin/embercalc")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/embercalc"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/embercalc")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
