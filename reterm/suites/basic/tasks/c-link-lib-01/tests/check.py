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
for path, digest in {'/app/src/main.c': 'f5f413c3804977bce76256f18f131a38962718a1ff333d4c194ea3a7727dc8c2', '/app/src/scoring.c': '254abf51492bc80faa3c34fde30b06f7e9251313fd3835e2548d99506275ccf7', '/app/lib/scoring/scoring.h': '4343ad09bdff0ded029bf77f7a9f9670a861bd55dc7fa363a7aa8fb47f13cba3', '/app/data/values.txt': '87f51b0ef76a4b335caf7f130fc305066bb60bd0e4be8c284a36c7e2f4b91fb4'}.items():
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
    if r.stdout != 'raven 313 -> 1589 3.0 17.692\nraven 239 -> 1219 4.0 15.460\nraven 338 -> 1714 3.0 18.385\nraven 336 -> 1704 1.0 18.330\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'raven 313 -> 1589 3.0 17.692\nraven 239 -> 1219 4.0 15.460\nraven 338 -> 1714 3.0 18.385\nraven 336 -> 1704 1.0 18.330\n'")

if not os.path.isfile("/app/bin/ravenctl"):
    fail("/app/bin/ravenctl was not built")
output("/app/bin/ravenctl")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/ravenctl"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/ravenctl")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
