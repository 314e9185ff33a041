import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/lumend.txt") != '103-ember.job 139\n228-tango.job 155\n668-delta.job 96\ntotal 390\n':
    fail("/app/out/lumend.txt does not hold the results of one full pass over the queue")
if "processed 3 jobs" not in read("/app/log/lumend.log"):
    fail("the worker's log does not show a successful run")
if os.path.exists('/app/run/lumend.pid'):
    fail("/app/run/lumend.pid is still there: the worker did not finish cleanly (or the stale file was kept)")
if hashlib.sha256(read("/app/bin/lumend").encode()).hexdigest() != "2588e928c365d8a3537f454d2dac24ff624a4f97582a6fb19e7fcc07498f906d":
    fail("the worker script was modified")
print("PASS")
