import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/gamma-sync.txt") != '267-sierra.job 129\n354-juniper.job 159\n477-pixel.job 153\n580-maple.job 105\n642-orbit.job 190\ntotal 736\n':
    fail("/app/out/gamma-sync.txt does not hold the results of one full pass over the queue")
if "processed 5 jobs" not in read("/app/log/gamma-sync.log"):
    fail("the worker's log does not show a successful run")
if os.path.exists('/app/tmp/gamma-sync.lock'):
    fail("/app/tmp/gamma-sync.lock is still there: the worker did not finish cleanly (or the stale file was kept)")
if hashlib.sha256(read("/app/bin/gamma-sync").encode()).hexdigest() != "30e3e47ab5766d6e308b5c0e7d3d86842e5b08b8ded8e710c18d9dfb8885efa2":
    fail("the worker script was modified")
print("PASS")
