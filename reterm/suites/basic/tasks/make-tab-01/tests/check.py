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
if read("/app/out/merged.txt") != '# gamma\n- tango\n- raven\n- pixel\n- orbit\n- orbit\n- orbit\n- maple\n- maple\n- fjord\n- alpha\n10\n':
    fail("/app/out/merged.txt does not hold what the Makefile's recipes make")
if hashlib.sha256(read("/app/data/items.txt").encode()).hexdigest() != "b448ae0482eb27bd080c2443ab615c370593d75f62224914ec6c6a358b6e117e":
    fail("/app/data/items.txt was modified")
if [l.strip() for l in read("/app/Makefile").splitlines() if l.strip()] != \
        ['all: out/merged.txt', 'build/upper.txt: data/items.txt', 'mkdir -p build', "sed 's/^/- /' $< > $@", 'build/sorted.txt: build/upper.txt', 'mkdir -p build', 'sort -r $< > $@', 'out/merged.txt: build/sorted.txt', 'mkdir -p out', "echo '# gamma' > $@", 'cat $< >> $@', 'wc -l < $< >> $@', 'clean:', 'rm -rf build out']:
    fail("the Makefile's rules or recipe commands were changed")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("build", "out"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("a plain make fails: " + (r.stdout + r.stderr)[-400:])
if read(tmp + "/app/out/merged.txt") != '# gamma\n- tango\n- raven\n- pixel\n- orbit\n- orbit\n- orbit\n- maple\n- maple\n- fjord\n- alpha\n10\n':
    fail("a plain make does not build out/merged.txt right")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
