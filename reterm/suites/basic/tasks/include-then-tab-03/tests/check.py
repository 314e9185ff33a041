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
if hashlib.sha256(read("/app/inc/units.h").encode()).hexdigest() != "0990f3edae6b135e38965651f927e7ff5fa4ae7bdf6bd85ea5162e663ab1bf2c":
    fail("/app/inc/units.h was modified")
if hashlib.sha256(read("/app/src/util.c").encode()).hexdigest() != "417657e070a36f951f89218a6b98bc6a750b76d814e4c9baf301e213902064a7":
    fail("/app/src/util.c was modified")
if hashlib.sha256(read("/app/src/main.c").encode()).hexdigest() != "b7cfb071cde31418f9f3c3e8105be1073c98d3c63233443248cfd8c9ba1b9cfc":
    fail("/app/src/main.c was modified")
found = sorted(os.path.join(r, f) for r, _, fs in os.walk("/app") for f in fs if f.endswith((".c", ".h")))
if found != ['/app/inc/units.h', '/app/src/main.c', '/app/src/util.c']:
    fail(f"the sources were moved or copied: {found}")
def run(binary):
    try:
        return subprocess.run([binary], capture_output=True, text=True, timeout=10).stdout
    except OSError as e:
        fail(f"cannot run {binary}: {e}")
if run("/app/cedar") != 'cedar total=1194\n':
    fail("/app/cedar does not print the expected total")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app")
r = subprocess.run(["make", "-B", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0:
    fail("`make` in a fresh copy of /app fails: " + r.stderr[-400:])
if run(tmp + "/app/cedar") != 'cedar total=1194\n':
    fail("a fresh build prints the wrong total")
print("PASS")
