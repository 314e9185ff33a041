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
if read("/app/out/digest.txt") != '# umber\ntango\nraven\nraven\n3\n':
    fail("/app/out/digest.txt does not hold what the Makefile's recipes make")
if hashlib.sha256(read("/app/data/items.txt").encode()).hexdigest() != "9ef08f7244e62072ea9c3a741650034b8b2e65a5020a4796dd3aac1f319c5842":
    fail("/app/data/items.txt was modified")
if [l.strip() for l in read("/app/Makefile").splitlines() if l.strip()] != \
        ['all: out/digest.txt', 'build/stage.txt: data/items.txt', 'mkdir -p build', 'sort -r $< > $@', 'build/listing.txt: build/stage.txt', 'mkdir -p build', 'head -n 3 $< > $@', 'out/digest.txt: build/listing.txt', 'mkdir -p out', "echo '# umber' > $@", 'cat $< >> $@', 'wc -l < $< >> $@', 'clean:', 'rm -rf build out']:
    fail("the Makefile's rules or recipe commands were changed")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("build", "out"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("a plain make fails: " + (r.stdout + r.stderr)[-400:])
if read(tmp + "/app/out/digest.txt") != '# umber\ntango\nraven\nraven\n3\n':
    fail("a plain make does not build out/digest.txt right")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
