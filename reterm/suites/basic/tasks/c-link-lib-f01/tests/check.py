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
for path, digest in {'/app/src/main.c': '58566c569972d960cfe2a583b394bdb4e155ad305648d631300be0cb58430f04', '/app/src/weights.c': '59c09efef4042a44b9f927732bb6176c373a7cf1803c533167b532d6d807972c', '/app/lib/weights/weights.h': '69701946b8cdc081e287ea4040849c8d4d6f99aebb53b8acfaec9eb3beba566e', '/app/data/values.txt': 'e4a424c5403ac54cf15def9c6a8b1ee59df4ba1f3467f36c3913d86a431c7c1f'}.items():
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
    if r.stdout != 'fjord 277 -> 2537 46\nfjord 177 -> 1637 30\nfjord 143 -> 1331 24\nfjord 365 -> 3329 61\nfjord 111 -> 1043 19\nfjord 60 -> 584 10\nfjord 299 -> 2735 50\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'fjord 277 -> 2537 46\nfjord 177 -> 1637 30\nfjord 143 -> 1331 24\nfjord 365 -> 3329 61\nfjord 111 -> 1043 19\nfjord 60 -> 584 10\nfjord 299 -> 2735 50\n'")

if not os.path.isfile("/app/bin/orbitstat"):
    fail("/app/bin/orbitstat was not built")
output("/app/bin/orbitstat")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/orbitstat"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/orbitstat")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
