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
for path, digest in {'/app/src/main.c': 'b4a06bcc4bcca52984e0cb0cf61c72804e18e28bb263b6c3d82b90f65da0ae64', '/app/src/weights.c': '15406f9f869538094b5ff16807a618326d5d25a1bdbc7b8b440eb9fa071e3423', '/app/lib/weights/weights.h': 'b90f52a0c4df3c6cd3924c89824f1faf778832b383a02d7087d58c56cc2dae84', '/app/data/values.txt': 'a644cc94fa3b45b9b93d2c578700d5db5f8ecf6f408325aaaa1fad1520a30202'}.items():
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
    if r.stdout != 'maple 367 -> 3303 2.0 19.157\nmaple 119 -> 1071 4.0 10.909\nmaple 385 -> 3465 0.0 19.621\nmaple 264 -> 2376 4.0 16.248\nmaple 345 -> 3105 0.0 18.574\nmaple 272 -> 2448 2.0 16.492\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'maple 367 -> 3303 2.0 19.157\nmaple 119 -> 1071 4.0 10.909\nmaple 385 -> 3465 0.0 19.621\nmaple 264 -> 2376 4.0 16.248\nmaple 345 -> 3105 0.0 18.574\nmaple 272 -> 2448 2.0 16.492\n'")

if not os.path.isfile("/app/bin/bravo"):
    fail("/app/bin/bravo was not built")
output("/app/bin/bravo")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/bravo"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/bravo")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
