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
for path, digest in {'/app/src/main.c': '688b6ee22b7832dc742d3321f8569db011a216c924d85ad874860753e82c1417', '/app/src/weights.c': 'c7f66b44ae41929d7f8274a1d4b373c28d8563f5095fcdb530efbe04d7c35999', '/app/lib/weights/weights.h': 'eb12b3f091eb828f3f7b8ea10f598050ca5144707888f1c658a07fafcf5b906c', '/app/data/values.txt': '83900ba88c2bbe8b95d22325410bb875ca207ab84fa7ccde926e9bda9673ea0a'}.items():
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
    if r.stdout != 'tango 21 -> 182 0.0 4.583\ntango 280 -> 2254 0.0 16.733\ntango 127 -> 1030 1.0 11.269\ntango 92 -> 750 1.0 9.592\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'tango 21 -> 182 0.0 4.583\ntango 280 -> 2254 0.0 16.733\ntango 127 -> 1030 1.0 11.269\ntango 92 -> 750 1.0 9.592\n'")

if not os.path.isfile("/app/bin/maplectl"):
    fail("/app/bin/maplectl was not built")
output("/app/bin/maplectl")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/maplectl"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/maplectl")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
