import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/fjord-worker.txt") != '110-maple.job 361\n300-vertex.job 353\n405-lumen.job 251\ntotal 965\n':
    fail("/app/out/fjord-worker.txt does not hold the results of one full pass over the queue")
if "processed 3 jobs" not in read("/app/log/fjord-worker.log"):
    fail("the worker's log does not show a successful run")
if os.path.exists('/app/run/fjord-worker.lock'):
    fail("/app/run/fjord-worker.lock is still there: the worker did not finish cleanly (or the stale file was kept)")
if hashlib.sha256(read("/app/bin/fjord-worker").encode()).hexdigest() != "a4303d5f380d0aa19bb6e67bc50fb4b98bdab7131888404c621e2894a4f5cf10":
    fail("the worker script was modified")
print("PASS")
