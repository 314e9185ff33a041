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
for path, digest in {'/app/src/main.c': '8228c21b3ce56ed3d8bb7c954be8b657196b841e73da38577f66ef35a3b0963c', '/app/src/units.c': '21f25941f625a640f3fa5f10d7118de705f777465d53357fe280d2a0a6275bf0', '/app/include/units.h': '6f28f21d048aaeb28adee7e581cf8002ab0158cdeee10109e9c06e825e8d2247', '/app/data/values.txt': 'e243459707c39fda1beb7168e6285bb132a0d995472e18ccd0edad17012c4019'}.items():
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
    if r.stdout != 'maple 246 -> 2223 15.684\nmaple 83 -> 756 9.110\nmaple 273 -> 2466 16.523\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'maple 246 -> 2223 15.684\nmaple 83 -> 756 9.110\nmaple 273 -> 2466 16.523\n'")

if not os.path.isfile("/app/bin/orbit"):
    fail("/app/bin/orbit was not built")
output("/app/bin/orbit")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/orbit"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/orbit")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
