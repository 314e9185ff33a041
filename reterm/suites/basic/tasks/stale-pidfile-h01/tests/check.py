import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/orbitd.txt") != '106-ember.job 65\n135-gamma.job 143\n375-orbit.job 218\n436-quartz.job 182\n891-fjord.job 62\n971-alpha.job 226\ntotal 896\n':
    fail("/app/out/orbitd.txt does not hold the results of one full pass over the queue")
if "processed 6 jobs" not in read("/app/log/orbitd.log"):
    fail("the worker's log does not show a successful run")
if os.path.exists('/app/var/run/orbitd.pid'):
    fail("/app/var/run/orbitd.pid is still there: the worker did not finish cleanly (or the stale file was kept)")
if hashlib.sha256(read("/app/bin/orbitd").encode()).hexdigest() != "7e4cec8c931ea56a290cc1cd29289a22770ec8af8e567edec9fb8a0b18c9a3e6":
    fail("the worker script was modified")

if hashlib.sha256(read("/app/etc/orbitd.conf").encode()).hexdigest() != "546768a485d4077bf1dc8adb46f3d6cdc23b59c8eea40a4de950994b17016623":
    fail("the worker's configuration was modified")
print("PASS")
