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
if read("/app/out/digest.txt") != '# harbor\nsierra\npixel\norbit\nember\ncedar\nalpha\n6\n':
    fail("/app/out/digest.txt does not hold what the Makefile's recipes make")
if hashlib.sha256(read("/app/data/names.txt").encode()).hexdigest() != "9d68f65e7e34d4f488e9405dbb76fe46ac1f13087a1f54a6587b4d3b18369a77":
    fail("/app/data/names.txt was modified")
if [l.strip() for l in read("/app/Makefile").splitlines() if l.strip()] != \
        ['all: out/digest.txt', 'build/sorted.txt: data/names.txt', 'mkdir -p build', 'sort -u $< > $@', 'build/index.txt: build/sorted.txt', 'mkdir -p build', 'sort -r $< > $@', 'out/digest.txt: build/index.txt', 'mkdir -p out', "echo '# harbor' > $@", 'cat $< >> $@', 'wc -l < $< >> $@', 'clean:', 'rm -rf build out']:
    fail("the Makefile's rules or recipe commands were changed")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("build", "out"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("a plain make fails: " + (r.stdout + r.stderr)[-400:])
if read(tmp + "/app/out/digest.txt") != '# harbor\nsierra\npixel\norbit\nember\ncedar\nalpha\n6\n':
    fail("a plain make does not build out/digest.txt right")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
