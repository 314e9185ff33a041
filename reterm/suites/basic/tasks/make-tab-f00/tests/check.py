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
if read("/app/out/sorted.txt") != '# quartz\n- vertex\n- sierra\n- raven\n- indigo\n- fjord\n- ember\n- delta\n7\n':
    fail("/app/out/sorted.txt does not hold what the Makefile's recipes make")
if hashlib.sha256(read("/app/data/input.txt").encode()).hexdigest() != "dc04c16d21a215e4ade0eb72a92a4e0cec4d1d504ca78ae4e1fca8093cc9691c":
    fail("/app/data/input.txt was modified")
if [l.strip() for l in read("/app/Makefile").splitlines() if l.strip()] != \
        ['all: out/sorted.txt', 'build/upper.txt: data/input.txt', 'mkdir -p build', "sed 's/^/- /' $< > $@", 'build/digest.txt: build/upper.txt', 'mkdir -p build', 'sort -r $< > $@', 'out/sorted.txt: build/digest.txt', 'mkdir -p out', "echo '# quartz' > $@", 'cat $< >> $@', 'wc -l < $< >> $@', 'clean:', 'rm -rf build out']:
    fail("the Makefile's rules or recipe commands were changed")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("build", "out"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("a plain make fails: " + (r.stdout + r.stderr)[-400:])
if read(tmp + "/app/out/sorted.txt") != '# quartz\n- vertex\n- sierra\n- raven\n- indigo\n- fjord\n- ember\n- delta\n7\n':
    fail("a plain make does not build out/sorted.txt right")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
