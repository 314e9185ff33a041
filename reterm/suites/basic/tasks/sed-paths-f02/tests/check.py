import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

for path, want in {'/app/conf/scheduler.conf': '# scheduler settings\nfallback = /var/lib/queue/nova\nname = scheduler-alpha\nprimary = http://queue.nova.internal:9820/nova\nthreads = 8\n', '/app/conf/app.conf': '# app settings\nname = app-alpha\ntarget = http://queue-alpha.lan:9820\nthreads = 3\n', '/app/conf/NOTES.txt': 'Before the move the queue service lived at http://queue.alpha.lan:9820\nSee the .conf files for the current settings.\n'}.items():
    got = read(path)
    if got != want:
        fail(f"{path} is {got!r}, expected {want!r}")
print("PASS")
