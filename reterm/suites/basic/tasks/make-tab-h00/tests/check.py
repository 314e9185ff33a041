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
if read("/app/out/digest.txt") != '# bravo\nRAVEN\nRAVEN\nMAPLE\nKEPLER\nGAMMA\nFJORD\nFJORD\nBRAVO\nBRAVO\n9\n':
    fail("/app/out/digest.txt does not hold what the Makefile's recipes make")
if hashlib.sha256(read("/app/data/input.txt").encode()).hexdigest() != "2b0457fd2a1fc6bcfc93246b23db3a592a6f735fb40911c3302f8e361fdfe79d":
    fail("/app/data/input.txt was modified")
if [l.strip() for l in read("/app/Makefile").splitlines() if l.strip()] != \
        ['all: out/digest.txt', 'build/index.txt: data/input.txt', 'mkdir -p build', 'tr a-z A-Z < $< > $@', 'build/stage.txt: build/index.txt', 'mkdir -p build', 'sort -r $< > $@', 'out/digest.txt: build/stage.txt', 'mkdir -p out', "echo '# bravo' > $@", 'cat $< >> $@', 'wc -l < $< >> $@', 'clean:', 'rm -rf build out']:
    fail("the Makefile's rules or recipe commands were changed")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("build", "out"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("a plain make fails: " + (r.stdout + r.stderr)[-400:])
if read(tmp + "/app/out/digest.txt") != '# bravo\nRAVEN\nRAVEN\nMAPLE\nKEPLER\nGAMMA\nFJORD\nFJORD\nBRAVO\nBRAVO\n9\n':
    fail("a plain make does not build out/digest.txt right")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
