import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

for path, want in {'/app/conf/sync.conf': '# sync settings\nupstream = http://cache.juniper.lan:4589\nendpoint = http://[fd00::92]:4588\nprimary = /var/lib/cache/gamma\ninclude = http://[fd00::92]:4588/v1\nname = sync-juniper\nthreads = 14\nmirror = http://[fd00::de5]:4588\n', '/app/conf/app.conf': '# app settings\nname = app-juniper\ntarget = http://cache.juniper.lan:4589\nthreads = 1\n', '/app/conf/scheduler.conf': '# scheduler settings\nname = scheduler-juniper\nbackup = /var/lib/cache/gamma\nthreads = 6\nfallback = http://cache.juniper.lan:4589\n', '/app/conf/app.conf.bak': 'Before the move the cache service lived at http://[fd00::de]:4588\nSee the .conf files for the current settings.\n'}.items():
    got = read(path)
    if got != want:
        fail(f"{path} is {got!r}, expected {want!r}")
print("PASS")
