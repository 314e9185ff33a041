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
for path, digest in {'/app/src/main.c': '4a9907d9f8bdc0a6b8a95f4d33d2713d839906bc1d775b9f78caf25460803224', '/app/src/weights.c': '369db529e1f63d7f98cd405474bb98d834abd333c303913c30d8d9f52b7e7646', '/app/include/tangostat/weights.h': '102c07a06516e6ee8276b4a3942bfb9a21b7059e0a8ad0c73347c688669670fb', '/app/data/values.txt': '646c807d8c0e560eb6260ce92899c36d7cfcd0eb7cc84d00fc23ae66cbaf3d12'}.items():
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
    if r.stdout != 'lumen 25 -> 207 5.000\nlumen 263 -> 2111 16.217\nlumen 264 -> 2119 16.248\nlumen 388 -> 3111 19.698\nlumen 396 -> 3175 19.900\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'lumen 25 -> 207 5.000\nlumen 263 -> 2111 16.217\nlumen 264 -> 2119 16.248\nlumen 388 -> 3111 19.698\nlumen 396 -> 3175 19.900\n'")

if not os.path.isfile("/app/bin/tangostat"):
    fail("/app/bin/tangostat was not built")
output("/app/bin/tangostat")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/tangostat"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/tangostat")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
