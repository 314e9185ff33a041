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
for path, digest in {'/app/src/main.c': '2387ad7a086b074a5935a09ab952f8533d2de02b9d8ebd8cd2bdac764ef3eb8c', '/app/src/metrics.c': '23ac8e8c2277c7785457abf75e2915772b50c07efa6ad9d0bed68594444ca8e4', '/app/include/metrics.h': 'f6d170fb97d8ba758d05bd680550fd995ceb813f6327b98ece6d1db0beff039f', '/app/data/values.txt': '218cfd186361a8229da11daa66bd5e794177c30aa564dc27c2b66f355f1ad5f2'}.items():
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
    if r.stdout != 'fjord 266 -> 802 16.310 5.0\nfjord 224 -> 676 14.967 8.0\nfjord 360 -> 1084 18.974 0.0\nfjord 349 -> 1051 18.682 7.0\nfjord 145 -> 439 12.042 1.0\nfjord 275 -> 829 16.583 5.0\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'fjord 266 -> 802 16.310 5.0\nfjord 224 -> 676 14.967 8.0\nfjord 360 -> 1084 18.974 0.0\nfjord 349 -> 1051 18.682 7.0\nfjord 145 -> 439 12.042 1.0\nfjord 275 -> 829 16.583 5.0\n'")

if not os.path.isfile("/app/bin/indigoctl"):
    fail("/app/bin/indigoctl was not built")
output("/app/bin/indigoctl")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/indigoctl"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/indigoctl")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
