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
for path, digest in {'/app/src/main.c': 'f6063e0f4ad87d1f6b7edb5ae6621b88ca5a76f0e35b2c3aab3962e44fac9285', '/app/src/weights.c': 'f93d2cf92c8c9ec8e28bc5d34a229ef3c414580fd7bb0f0273ff9a4773d29495', '/app/src/include/weights.h': 'c4892363610fb25f59681896c6d2fb0122bc01c99851c676df27d8a0b387bb4e', '/app/data/values.txt': '6afce9620dd8918eabdd37c6039b71a998877850af2a7c580d85220c37e1753b'}.items():
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
    if r.stdout != 'cedar 81 -> 448 9.000 10\ncedar 302 -> 1553 17.378 38\ncedar 194 -> 1013 13.928 24\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'cedar 81 -> 448 9.000 10\ncedar 302 -> 1553 17.378 38\ncedar 194 -> 1013 13.928 24\n'")

if not os.path.isfile("/app/bin/vertexstat"):
    fail("/app/bin/vertexstat was not built")
output("/app/bin/vertexstat")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/vertexstat"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/vertexstat")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
