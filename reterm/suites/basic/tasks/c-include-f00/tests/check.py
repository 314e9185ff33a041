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
for path, digest in {'/app/src/main.c': 'c3bc3a30be8e36f03e8346724f2aa8cb45631558a80b6effebde1a26e2cd531e', '/app/src/table.c': '56768fcfbdd2998f4658abbe4e31dbc2bb91a5622bef4cb69cff306747077b51', '/app/src/include/table.h': '223157d5e9c8127dee20b1cbe3d6a99d831802851075d8dea4e9abd096bf3ed1', '/app/data/values.txt': '800f834e83ab474ee180ce8a20910777a5d5718e45394fb83cb02112135bbd36'}.items():
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
    if r.stdout != 'vertex 297 -> 614 1.0\nvertex 338 -> 696 2.0\nvertex 252 -> 524 4.0\nvertex 345 -> 710 1.0\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'vertex 297 -> 614 1.0\nvertex 338 -> 696 2.0\nvertex 252 -> 524 4.0\nvertex 345 -> 710 1.0\n'")

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
