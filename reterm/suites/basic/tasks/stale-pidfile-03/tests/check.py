import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/juniper-worker.txt") != '464-maple.job 264\n538-indigo.job 234\n636-orbit.job 249\n725-tango.job 74\ntotal 821\n':
    fail("/app/out/juniper-worker.txt does not hold the results of one full pass over the queue")
if "processed 4 jobs" not in read("/app/log/juniper-worker.log"):
    fail("the worker's log does not show a successful run")
if os.path.exists('/app/run/juniper-worker.pid'):
    fail("/app/run/juniper-worker.pid is still there: the worker did not finish cleanly (or the stale file was kept)")
if hashlib.sha256(read("/app/bin/juniper-worker").encode()).hexdigest() != "98f3ea5cdcf94b303de6c65e9dfaec359822829b5b2112fb958037a11a393775":
    fail("the worker script was modified")

if hashlib.sha256(read("/app/etc/juniper-worker.conf").encode()).hexdigest() != "fbe870d9fc9f44fc58bb652649a2a4850fc21d97dc0a593f4269fbf8da279c65":
    fail("the worker's configuration was modified")
print("PASS")
