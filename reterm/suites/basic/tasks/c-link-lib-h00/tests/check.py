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
for path, digest in {'/app/src/main.c': 'af9b312dbf2d24fd4a958f0f93c244e814bbce0e277f9e2a2743db473c910963', '/app/src/table.c': '52c0052e42ef560c3053db1bdcdf439a976f8a59781531d330c745d0ebfd1818', '/app/src/include/table.h': '9936970265316f253e4804d3f164e84d8e7a9524f010043b4e750cd9f0a4544e', '/app/data/values.txt': '7d95188b0dd3e5efce0a12b3315a02ed888cfc02a3666d6f71cc28737f7fe796'}.items():
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
    if r.stdout != 'umber 158 -> 1455 12.570 6.0\number 393 -> 3570 19.824 1.0\number 295 -> 2688 17.176 7.0\number 329 -> 2994 18.138 1.0\number 41 -> 402 6.403 1.0\number 296 -> 2697 17.205 0.0\n':
        fail(f"{binary} printed {r.stdout!r}, expected 'umber 158 -> 1455 12.570 6.0\number 393 -> 3570 19.824 1.0\number 295 -> 2688 17.176 7.0\number 329 -> 2994 18.138 1.0\number 41 -> 402 6.403 1.0\number 296 -> 2697 17.205 0.0\n'")

if not os.path.isfile("/app/bin/bravocalc"):
    fail("/app/bin/bravocalc was not built")
output("/app/bin/bravocalc")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("bin", "*.o"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=120)
if r.returncode != 0 or not os.path.isfile(tmp + "/app/bin/bravocalc"):
    fail("a plain make does not build the program: " + (r.stdout + r.stderr)[-400:])
output(tmp + "/app/bin/bravocalc")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
