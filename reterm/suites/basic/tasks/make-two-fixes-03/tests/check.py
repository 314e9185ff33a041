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
for path, digest in {'/app/src/main.c': '91fdc97f0f37ebdf7fd112e191d0186f19bf67ce2dcc7ddebfc29646419db214', '/app/src/table.c': '791de945b1453f8b51491b03a05a7de7e1e20e49c61fb3ecc6ef2f82c6fa6619', '/app/src/include/table.h': 'fed43bb4b8cc2004f2500a177896751142e0c1a4e86dc1f0fa763f9f9d7bf909', '/app/data/values.txt': '9212d5c1724a1ad9642791da41efbe741f1002991f6e2e64dfad7647944e056b'}.items():
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
    if r.stdout != 'tango 229 -> 1418 1.0 15.133\ntango 314 -> 1928 2.0 17.720\ntango 160 -> 1004 1.0 12.649\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'tango 229 -> 1418 1.0 15.133\ntango 314 -> 1928 2.0 17.720\ntango 160 -> 1004 1.0 12.649\n'")

if not os.path.isfile("/app/bin/keplerctl"):
    fail("/app/bin/keplerctl was not built")
output("/app/bin/keplerctl")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/keplerctl"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/keplerctl")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
