import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

for path, want in {'/app/conf/gateway.conf': '# gateway settings\nname = gateway-sierra\nbackup = http://search.pixel.internal:7807/pixel\nthreads = 5\nendpoint = http://search.sierra.lan:7808\n', '/app/conf/scheduler.conf': '# scheduler settings\nprimary = http://search-sierra.lan:7807\nname = scheduler-sierra\nthreads = 2\n', '/app/conf/sync.conf': '# sync settings\nname = sync-sierra\npeer = http://search.pixel.internal:7807/health\nthreads = 6\n', '/app/conf/NOTES.txt': 'Before the move the search service lived at http://search.sierra.lan:7807\nSee the .conf files for the current settings.\n'}.items():
    got = read(path)
    if got != want:
        fail(f"{path} is {got!r}, expected {want!r}")
print("PASS")
