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
for path, digest in {'/app/src/main.c': 'fda805f6aaad989065c1b62d50ddc4567f7b9b29e650988f6369d86750b4104c', '/app/src/scoring.c': 'd90e94ae4bb08dc4d441c023df3ac453d4c9edc02f971d97b17fbe22881376f6', '/app/include/alphastat/scoring.h': '67a37296276a02106485241fd704b37e0f7ff5a860b143d6f94855113ed4d465', '/app/data/values.txt': 'd118150c8591b690d3d948f9c38769db4c2a14373794456223c9d90b420767a0'}.items():
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
    if r.stdout != 'tango 285 -> 1190 16.882 6.0\ntango 126 -> 554 11.225 0.0\ntango 233 -> 982 15.264 8.0\ntango 284 -> 1186 16.852 5.0\ntango 400 -> 1650 20.000 4.0\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'tango 285 -> 1190 16.882 6.0\ntango 126 -> 554 11.225 0.0\ntango 233 -> 982 15.264 8.0\ntango 284 -> 1186 16.852 5.0\ntango 400 -> 1650 20.000 4.0\n'")

if not os.path.isfile("/app/bin/alphastat"):
    fail("/app/bin/alphastat was not built")
output("/app/bin/alphastat")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/alphastat"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/alphastat")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
