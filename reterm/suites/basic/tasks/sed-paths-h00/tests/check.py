import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

for path, want in {'/app/conf/api.conf': '# api settings\nname = api-pixel\nupstream = http://[fd00::28]:8798/status\nthreads = 5\nprimary = /var/lib/auth/indigo\nbackup = http://auth.pixel.lan:8799\ninclude = http://[fd00::28]:8798\n', '/app/conf/sync.conf': '# sync settings\nendpoint = /var/lib/auth/indigo\nname = sync-pixel\nthreads = 15\npeer = http://[fd00::28]:8798/v1\nmirror = http://auth.pixel.lan:8799\n', '/app/conf/worker.conf': '# worker settings\nsource = http://[fd00::74]:8798\nname = worker-pixel\ninclude = /var/lib/auth/indigo\nthreads = 3\ntarget = http://auth.pixel.lan:8799\nfallback = http://[fd00::28]:8798/v1\n', '/app/conf/app.conf.bak': 'Before the move the auth service lived at http://[fd00::7]:8798\nSee the .conf files for the current settings.\n'}.items():
    got = read(path)
    if got != want:
        fail(f"{path} is {got!r}, expected {want!r}")
print("PASS")
