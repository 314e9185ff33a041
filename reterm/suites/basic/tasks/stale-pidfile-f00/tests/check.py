import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/harbor-indexer.txt") != '121-orbit.job 193\n381-vertex.job 101\n421-gamma.job 106\n682-raven.job 393\n875-quartz.job 218\n983-lumen.job 198\ntotal 1209\n':
    fail("/app/out/harbor-indexer.txt does not hold the results of one full pass over the queue")
if "processed 6 jobs" not in read("/app/log/harbor-indexer.log"):
    fail("the worker's log does not show a successful run")
if os.path.exists('/app/tmp/harbor-indexer.lock'):
    fail("/app/tmp/harbor-indexer.lock is still there: the worker did not finish cleanly (or the stale file was kept)")
if hashlib.sha256(read("/app/bin/harbor-indexer").encode()).hexdigest() != "b8064ab2b025acd3eee5caddfbd308e4cd28679e37536398332b5e2452b08893":
    fail("the worker script was modified")

if hashlib.sha256(read("/app/etc/harbor-indexer.conf").encode()).hexdigest() != "0f284e5137828bb6e6b39f5790e5995eec198c64d90eebf71620bafbd9f7c518":
    fail("the worker's configuration was modified")
print("PASS")
