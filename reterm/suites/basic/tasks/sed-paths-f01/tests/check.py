import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

for path, want in {'/app/conf/gateway.conf': '# gateway settings\nprimary = http://search.sierra.internal:6637/sierra\nname = gateway-umber\nbackup = /var/lib/search/sierra\nthreads = 8\n', '/app/conf/app.conf': '# app settings\ntarget = http://search-umber.lan:6637\nname = app-umber\nthreads = 15\n', '/app/conf/scheduler.conf': '# scheduler settings\npeer = /var/lib/search/sierra\nfallback = http://search.sierra.internal:6637/sierra\nname = scheduler-umber\nthreads = 8\n', '/app/conf/NOTES.txt': 'Before the move the search service lived at http://search.umber.lan:6637\nSee the .conf files for the current settings.\n'}.items():
    got = read(path)
    if got != want:
        fail(f"{path} is {got!r}, expected {want!r}")
print("PASS")
