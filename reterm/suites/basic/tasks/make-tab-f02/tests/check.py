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
if read("/app/out/sorted.txt") != '# harbor\nlumen\nmaple\npixel\n3\n':
    fail("/app/out/sorted.txt does not hold what the Makefile's recipes make")
if hashlib.sha256(read("/app/data/items.txt").encode()).hexdigest() != "f94a6e452438fc8da6d31e119451034a5c3a2801e5eb81a59f56f483569e8e18":
    fail("/app/data/items.txt was modified")
if [l.strip() for l in read("/app/Makefile").splitlines() if l.strip()] != \
        ['all: out/sorted.txt', 'build/stage.txt: data/items.txt', 'mkdir -p build', 'head -n 3 $< > $@', 'build/clean.txt: build/stage.txt', 'mkdir -p build', 'sort -u $< > $@', 'out/sorted.txt: build/clean.txt', 'mkdir -p out', "echo '# harbor' > $@", 'cat $< >> $@', 'wc -l < $< >> $@', 'clean:', 'rm -rf build out']:
    fail("the Makefile's rules or recipe commands were changed")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("build", "out"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("a plain make fails: " + (r.stdout + r.stderr)[-400:])
if read(tmp + "/app/out/sorted.txt") != '# harbor\nlumen\nmaple\npixel\n3\n':
    fail("a plain make does not build out/sorted.txt right")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
