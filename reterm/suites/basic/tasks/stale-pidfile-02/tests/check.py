import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/harbor-indexer.txt") != '274-sierra.job 291\n455-gamma.job 171\n975-umber.job 321\ntotal 783\n':
    fail("/app/out/harbor-indexer.txt does not hold the results of one full pass over the queue")
if "processed 3 jobs" not in read("/app/log/harbor-indexer.log"):
    fail("the worker's log does not show a successful run")
if os.path.exists('/app/var/run/harbor-indexer.pid'):
    fail("/app/var/run/harbor-indexer.pid is still there: the worker did not finish cleanly (or the stale file was kept)")
if hashlib.sha256(read("/app/bin/harbor-indexer").encode()).hexdigest() != "30cedcfbe91c2da3b6edee9e91faba563a715c84132628172b4cd0af7f228270":
    fail("the worker script was modified")
print("PASS")
