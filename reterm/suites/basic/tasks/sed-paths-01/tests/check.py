import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

for path, want in {'/app/conf/gateway.conf': '# gateway settings\nmirror = /var/lib/search/indigo\nname = gateway-orbit\nsource = http://search.orbit.lan:7636/v1\nupstream = http://search.orbit.lan:7635\nfallback = https://search.orbit.lan/v2/export?format=json&limit=500\nthreads = 15\ninclude = https://search.orbit.lan/v2/export?format=json&limit=500\n', '/app/conf/app.conf': '# app settings\nname = app-orbit\nthreads = 12\n', '/app/conf/worker.conf': '# worker settings\nendpoint = /var/lib/search/indigo\nname = worker-orbit\npeer = http://search.orbit.lan:7635\nthreads = 16\n', '/app/conf/NOTES.txt': 'Before the move the search service lived at https://search.orbit.lan/v1/export?format=csv\nSee the .conf files for the current settings.\n'}.items():
    got = read(path)
    if got != want:
        fail(f"{path} is {got!r}, expected {want!r}")
print("PASS")
