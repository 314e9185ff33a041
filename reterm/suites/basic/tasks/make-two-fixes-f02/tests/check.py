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
for path, digest in {'/app/src/main.c': '6892978bcf5a19ecb2c09383c524a10b343aeebf5d039e62d8510c30490960f6', '/app/src/metrics.c': '11c059f0de8de03ddce86ec731026f1f1dd4ef1ae30f3d709ead3347fdce3c1e', '/app/include/cedarstat/metrics.h': 'd4b48e85a6458569497378ae606a0a2759dfa8ff55d056d9dae6da7f65770187', '/app/data/values.txt': '544ed650e0b790c5b8789b291ebc140da24255101b8e33526fd4881581b64ba4'}.items():
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
    if r.stdout != 'fjord 171 -> 1551 13.077\nfjord 185 -> 1677 13.601\nfjord 39 -> 363 6.245\nfjord 187 -> 1695 13.675\nfjord 255 -> 2307 15.969\nfjord 209 -> 1893 14.457\nfjord 97 -> 885 9.849\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'fjord 171 -> 1551 13.077\nfjord 185 -> 1677 13.601\nfjord 39 -> 363 6.245\nfjord 187 -> 1695 13.675\nfjord 255 -> 2307 15.969\nfjord 209 -> 1893 14.457\nfjord 97 -> 885 9.849\n'")

if not os.path.isfile("/app/bin/cedarstat"):
    fail("/app/bin/cedarstat was not built")
output("/app/bin/cedarstat")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/cedarstat"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/cedarstat")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
