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
for path, digest in {'/app/src/main.c': 'ed34eb3db68087ac6f5c0fd98bea9bb58a9e85eff378e4db8c0adc9245440cd1', '/app/src/pricing.c': '4857d88ce9c2c82e9debccefe9f229f63b6a3404e6d5ef60296fbc00b5772b34', '/app/lib/pricing/pricing.h': 'd694c0d23a806cbf4d5ee6f3f7b662fa2882fda7291c7bb761a9abfd5fcc1950', '/app/data/values.txt': '6de6410c08217993b87fc7f5f252679bd3521f1d5d1b2c0b1580e9a8d173d16a'}.items():
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
    if r.stdout != 'maple 134 -> 289 11.576 22\nmaple 187 -> 395 13.675 31\nmaple 309 -> 639 17.578 52\nmaple 315 -> 651 17.748 53\nmaple 276 -> 573 16.613 46\nmaple 128 -> 277 11.314 21\nmaple 263 -> 547 16.217 44\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'maple 134 -> 289 11.576 22\nmaple 187 -> 395 13.675 31\nmaple 309 -> 639 17.578 52\nmaple 315 -> 651 17.748 53\nmaple 276 -> 573 16.613 46\nmaple 128 -> 277 11.314 21\nmaple 263 -> 547 16.217 44\n'")

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
