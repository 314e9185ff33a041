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
if read("/app/out/clean.txt") != '# cedar\ndelta\nember\nharbor\n3\n':
    fail("/app/out/clean.txt does not hold what the Makefile's recipes make")
if hashlib.sha256(read("/app/data/items.txt").encode()).hexdigest() != "7699e32979cf89eb8ce0d78d16f3015643739cfabc2294e373b6f9e4e88e9cae":
    fail("/app/data/items.txt was modified")
if [l.strip() for l in read("/app/Makefile").splitlines() if l.strip()] != \
        ['all: out/clean.txt', 'build/merged.txt: data/items.txt', 'mkdir -p build', 'sort -u $< > $@', 'build/upper.txt: build/merged.txt', 'mkdir -p build', 'head -n 3 $< > $@', 'out/clean.txt: build/upper.txt', 'mkdir -p out', "echo '# cedar' > $@", 'cat $< >> $@', 'wc -l < $< >> $@', 'clean:', 'rm -rf build out']:
    fail("the Makefile's rules or recipe commands were changed")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("build", "out"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("a plain make fails: " + (r.stdout + r.stderr)[-400:])
if read(tmp + "/app/out/clean.txt") != '# cedar\ndelta\nember\nharbor\n3\n':
    fail("a plain make does not build out/clean.txt right")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
