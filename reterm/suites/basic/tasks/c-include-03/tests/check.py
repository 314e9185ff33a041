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
for path, digest in {'/app/src/main.c': '70449c25bbd097c508c128750918bc2d21e0b0bfabb4c076e3892ee12fd6afee', '/app/src/pricing.c': '5686f304ad4d8a3742b58ecee24aa218f97ccf1dafcf2d244a7768167ee75416', '/app/include/pricing.h': '75da03dd9f0c7c34a5570b6ea6ced09daf65d8588ae093d47c8d1ba13cf03305', '/app/data/values.txt': '31f6dbbb0f1f59ee8bde3e55ff2c7a938d235054a90296a88b35855941b92719'}.items():
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
    if r.stdout != 'fjord 336 -> 1010 18.330\nfjord 350 -> 1052 18.708\nfjord 266 -> 800 16.310\nfjord 230 -> 692 15.166\nfjord 147 -> 443 12.124\nfjord 297 -> 893 17.234\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'fjord 336 -> 1010 18.330\nfjord 350 -> 1052 18.708\nfjord 266 -> 800 16.310\nfjord 230 -> 692 15.166\nfjord 147 -> 443 12.124\nfjord 297 -> 893 17.234\n'")

if not os.path.isfile("/app/bin/delta"):
    fail("/app/bin/delta was not built")
output("/app/bin/delta")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/delta"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/delta")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
