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
if read("/app/out/upper.txt") != '# harbor\n- bravo\n- lumen\n- lumen\n3\n':
    fail("/app/out/upper.txt does not hold what the Makefile's recipes make")
if hashlib.sha256(read("/app/data/items.txt").encode()).hexdigest() != "40ef97c529ab7b46ce1453fbdb0ae968cd887ae9f8542f3360200bc840c2b0c9":
    fail("/app/data/items.txt was modified")
if [l.strip() for l in read("/app/Makefile").splitlines() if l.strip()] != \
        ['all: out/upper.txt', 'build/digest.txt: data/items.txt', 'mkdir -p build', 'head -n 3 $< > $@', 'build/listing.txt: build/digest.txt', 'mkdir -p build', "sed 's/^/- /' $< > $@", 'out/upper.txt: build/listing.txt', 'mkdir -p out', "echo '# harbor' > $@", 'cat $< >> $@', 'wc -l < $< >> $@', 'clean:', 'rm -rf build out']:
    fail("the Makefile's rules or recipe commands were changed")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("build", "out"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("a plain make fails: " + (r.stdout + r.stderr)[-400:])
if read(tmp + "/app/out/upper.txt") != '# harbor\n- bravo\n- lumen\n- lumen\n3\n':
    fail("a plain make does not build out/upper.txt right")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
