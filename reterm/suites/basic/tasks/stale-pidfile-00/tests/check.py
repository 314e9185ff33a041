import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/lumen-sync.txt") != '225-maple.job 71\n259-fjord.job 166\n728-vertex.job 102\n839-lumen.job 165\n929-raven.job 198\ntotal 702\n':
    fail("/app/out/lumen-sync.txt does not hold the results of one full pass over the queue")
if "processed 5 jobs" not in read("/app/log/lumen-sync.log"):
    fail("the worker's log does not show a successful run")
if os.path.exists('/app/tmp/lumen-sync.lock'):
    fail("/app/tmp/lumen-sync.lock is still there: the worker did not finish cleanly (or the stale file was kept)")
if hashlib.sha256(read("/app/bin/lumen-sync").encode()).hexdigest() != "e56881e0f6439004c2136b14d4acd7c5779af100424ed80cc7bef18355dc8c73":
    fail("the worker script was modified")

if hashlib.sha256(read("/app/etc/lumen-sync.conf").encode()).hexdigest() != "791e275c4691e5f221922fbf35182554842bad9f51ff0e1f9a6e6423ea326e38":
    fail("the worker's configuration was modified")
print("PASS")
