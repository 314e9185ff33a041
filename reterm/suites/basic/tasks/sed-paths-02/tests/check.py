import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

for path, want in {'/app/conf/api.conf': '# api settings\nname = api-vertex\nthreads = 11\nprimary = /srv/maple/cache.d/*.conf\nsource = /srv/maple/cache.d/*.conf\nfallback = http://cache.vertex.lan:7444\n', '/app/conf/gateway.conf': '# gateway settings\nname = gateway-vertex\ntarget = /srv/maple/cache.d/*.conf\nupstream = http://cache.vertex.lan:7444\npeer = /srv/maple/cache.d/*.conf\nendpoint = /etc/vertex/cache.d/00-base.conf\nthreads = 1\nmirror = /var/lib/cache/maple\n', '/app/conf/scheduler.conf': '# scheduler settings\ninclude = /srv/maple/cache.d/*.conf\nname = scheduler-vertex\nthreads = 3\n', '/app/conf/app.conf.bak': 'Before the move the cache service lived at /etc/vertex/cache.d/*.conf\nSee the .conf files for the current settings.\n'}.items():
    got = read(path)
    if got != want:
        fail(f"{path} is {got!r}, expected {want!r}")
print("PASS")
