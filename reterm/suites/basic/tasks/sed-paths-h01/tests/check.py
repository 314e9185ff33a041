import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

for path, want in {'/app/conf/sync.conf': '# sync settings\nname = sync-harbor\nthreads = 10\nprimary = /srv/umber/db.d/*.conf\nbackup = /var/lib/db/umber\ntarget = http://db.harbor.lan:8564\n', '/app/conf/scheduler.conf': '# scheduler settings\nname = scheduler-harbor\nendpoint = http://db.harbor.lan:8564\ninclude = /srv/umber/db.d/*.conf\nthreads = 13\nsource = /srv/umber/db.d/*.conf\n', '/app/conf/gateway.conf': '# gateway settings\nname = gateway-harbor\nthreads = 1\npeer = /etc/harbor/db.d/00-base.conf\n', '/app/conf/README': 'Before the move the db service lived at /etc/harbor/db.d/*.conf\nSee the .conf files for the current settings.\n'}.items():
    got = read(path)
    if got != want:
        fail(f"{path} is {got!r}, expected {want!r}")
print("PASS")
