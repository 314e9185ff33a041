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
for path, digest in {'/app/src/main.c': '13113bb22517193f4e191e73b4bdac41e0ad0664425f0398eae1e61b82cc33ba', '/app/src/pricing.c': '4668c6b94632a74630fdda8af63b14f3e0c5955da3df68672a05239489f17d47', '/app/lib/pricing/pricing.h': '7378a808348882f82fed4d5ee57331b4dcb3f7a87b89ccae7368d1cf5ee88809', '/app/data/values.txt': '2cbe2a4a53dbe88435c6bdceb6a24ad259fa081368c2f30eec92913c6a362991'}.items():
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
    if r.stdout != 'vertex 103 -> 835 11\nvertex 383 -> 3075 43\nvertex 334 -> 2683 37\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'vertex 103 -> 835 11\nvertex 383 -> 3075 43\nvertex 334 -> 2683 37\n'")

if not os.path.isfile("/app/bin/bravostat"):
    fail("/app/bin/bravostat was not built")
output("/app/bin/bravostat")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/bravostat"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/bravostat")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
