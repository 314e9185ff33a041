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
if hashlib.sha256(read("/app/inc/units.h").encode()).hexdigest() != "946d61fc1d727391ac73fe1bddf1c6030bc42ae9b8be09d6f64599020c212a79":
    fail("/app/inc/units.h was modified")
if hashlib.sha256(read("/app/src/util.c").encode()).hexdigest() != "417657e070a36f951f89218a6b98bc6a750b76d814e4c9baf301e213902064a7":
    fail("/app/src/util.c was modified")
if hashlib.sha256(read("/app/src/main.c").encode()).hexdigest() != "3f2bb9dffbfaa2c44a9e4ab2100434f24e987ee00c8da3032656b19126b29760":
    fail("/app/src/main.c was modified")
found = sorted(os.path.join(r, f) for r, _, fs in os.walk("/app") for f in fs if f.endswith((".c", ".h")))
if found != ['/app/inc/units.h', '/app/src/main.c', '/app/src/util.c']:
    fail(f"the sources were moved or copied: {found}")
def run(binary):
    try:
        return subprocess.run([binary], capture_output=True, text=True, timeout=10).stdout
    except OSError as e:
        fail(f"cannot run {binary}: {e}")
if run("/app/nova") != 'nova total=410\n':
    fail("/app/nova does not print the expected total")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app")
r = subprocess.run(["make", "-B", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0:
    fail("`make` in a fresh copy of /app fails: " + r.stderr[-400:])
if run(tmp + "/app/nova") != 'nova total=410\n':
    fail("a fresh build prints the wrong total")
print("PASS")
