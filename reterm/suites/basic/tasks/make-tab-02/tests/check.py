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
if read("/app/out/listing.txt") != '# maple\n- QUARTZ\n- ALPHA\n- QUARTZ\n- HARBOR\n- CEDAR\n- MAPLE\n- TANGO\n- HARBOR\n- INDIGO\n9\n':
    fail("/app/out/listing.txt does not hold what the Makefile's recipes make")
if hashlib.sha256(read("/app/data/items.txt").encode()).hexdigest() != "9eaa317ddacc2c030968550eda83174651a3d0c4cb3b716e458587a8a406769d":
    fail("/app/data/items.txt was modified")
if [l.strip() for l in read("/app/Makefile").splitlines() if l.strip()] != \
        ['all: out/listing.txt', 'build/stage.txt: data/items.txt', 'mkdir -p build', "sed 's/^/- /' $< > $@", 'build/clean.txt: build/stage.txt', 'mkdir -p build', 'tr a-z A-Z < $< > $@', 'out/listing.txt: build/clean.txt', 'mkdir -p out', "echo '# maple' > $@", 'cat $< >> $@', 'wc -l < $< >> $@', 'clean:', 'rm -rf build out']:
    fail("the Makefile's rules or recipe commands were changed")
tmp = tempfile.mkdtemp()
shutil.copytree("/app", tmp + "/app", symlinks=True, ignore=shutil.ignore_patterns("build", "out"))
r = subprocess.run(["make", "-C", tmp + "/app"], capture_output=True, text=True, timeout=60)
if r.returncode != 0:
    fail("a plain make fails: " + (r.stdout + r.stderr)[-400:])
if read(tmp + "/app/out/listing.txt") != '# maple\n- QUARTZ\n- ALPHA\n- QUARTZ\n- HARBOR\n- CEDAR\n- MAPLE\n- TANGO\n- HARBOR\n- INDIGO\n9\n':
    fail("a plain make does not build out/listing.txt right")
shutil.rmtree(tmp, ignore_errors=True)
print("PASS")
