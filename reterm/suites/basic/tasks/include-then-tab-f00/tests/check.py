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
if hashlib.sha256(read("/app/include/config.h").encode()).hexdigest() != "be58bf8c78ec48d3fea3b86d92cd7c794443778b8528d02cacbaf627836551f8":
    fail("/app/include/config.h was modified")
if hashlib.sha256(read("/app/src/util.c").encode()).hexdigest() != "c9b2f8c080d80627540e527b1c7ab9459c0b506353e90e0646d5bc780075b8c2":
    fail("/app/src/util.c was modified")
if hashlib.sha256(read("/app/src/main.c").encode()).hexdigest() != "59a84a64b38f0623d655f5ed03636f4d853e07d95aed2ed08b10dd426fd07214":
    fail("/app/src/main.c was modified")
found = sorted(os.path.join(r, f) for r, _, fs in os.walk("/app") for f in fs if f.endswith((".c", ".h")))
if found != ['/app/include/config.h', '/app/src/main.c', '/app/src/util.c']:
    fail(f"the sources were moved or copied: {found}")
def run(binary):
    try:
        return subprocess.run([binary], capture_output=True, text=True, timeout=10).stdout
    except OSError as e:
        fail(f"cannot run {binary}: {e}")
if run("/app/indigo") != 'indigo total=280\n':
    fail("/app/indigo does not print the expected total")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app")
r = subprocess.run(["make", "-B", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0:
    fail("`make` in a fresh copy of /app fails: " + r.stderr[-400:])
if run(tmp + "/app/indigo") != 'indigo total=280\n':
    fail("a fresh build prints the wrong total")
print("PASS")
