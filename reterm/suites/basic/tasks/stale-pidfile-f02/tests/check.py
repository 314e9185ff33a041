import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/ember-worker.txt") != '539-umber.job 66\n678-juniper.job 81\n775-indigo.job 250\n901-delta.job 132\n937-orbit.job 134\ntotal 663\n':
    fail("/app/out/ember-worker.txt does not hold the results of one full pass over the queue")
if "processed 5 jobs" not in read("/app/log/ember-worker.log"):
    fail("the worker's log does not show a successful run")
if os.path.exists('/app/run/ember-worker.lock'):
    fail("/app/run/ember-worker.lock is still there: the worker did not finish cleanly (or the stale file was kept)")
if hashlib.sha256(read("/app/bin/ember-worker").encode()).hexdigest() != "d0f98ba3db47c3b24d38c0b297958217320dd56f7ea6a69712b1a8ec4f61aef8":
    fail("the worker script was modified")
print("PASS")
