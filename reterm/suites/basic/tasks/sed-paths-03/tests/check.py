import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

for path, want in {'/app/conf/scheduler.conf': '# scheduler settings\nname = scheduler-harbor\nbackup = /var/lib/queue/kepler\nendpoint = http://queue.kepler.internal:8274\nthreads = 15\npeer = http://queue.harbor.lan:8275\ntarget = http://queue-harbor.lan:8274\nmirror = http://queue.kepler.internal:8274/health\n', '/app/conf/worker.conf': '# worker settings\nname = worker-harbor\nthreads = 10\nsource = http://queue.kepler.internal:8274/kepler\nfallback = http://queue.harbor.lan:8275\nprimary = /var/lib/queue/kepler\n', '/app/conf/README': 'Before the move the queue service lived at http://queue.harbor.lan:8274\nSee the .conf files for the current settings.\n'}.items():
    got = read(path)
    if got != want:
        fail(f"{path} is {got!r}, expected {want!r}")
print("PASS")
