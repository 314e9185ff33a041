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
for path, digest in {'/app/src/main.c': 'd5e5ee6d435e82209dcb35ea260af52cba3bff17e813ed276de9805155791da4', '/app/src/scoring.c': '365e2c3e6b7591bafac955dbed164db26eb0f618a89f2d0abf2fcc1db90554fb', '/app/src/include/scoring.h': '6ef0b103a6646618101da05f27df8eeabbe03d2dd0244111e3ea0e40f75c1fac', '/app/data/values.txt': '5dc731659d1d886848030bd499f47bbc3a51eb3dabb87bb5965f030dc8b5d9ec'}.items():
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
    if r.stdout != 'nova 329 -> 1666 1.0\nnova 348 -> 1761 4.0\nnova 105 -> 546 1.0\nnova 301 -> 1526 5.0\nnova 23 -> 136 7.0\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'nova 329 -> 1666 1.0\nnova 348 -> 1761 4.0\nnova 105 -> 546 1.0\nnova 301 -> 1526 5.0\nnova 23 -> 136 7.0\n'")

if not os.path.isfile("/app/bin/pixelstat"):
    fail("/app/bin/pixelstat was not built")
output("/app/bin/pixelstat")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/pixelstat"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/pixelstat")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
