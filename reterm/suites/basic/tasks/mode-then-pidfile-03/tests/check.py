import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import stat
if read("/app/out/manifest.sig") != '2c981843408453f04253275a6eacfbdeebc088aab887f4d9713dc5434086bdc1  manifest.txt\n':
    fail("/app/out/manifest.sig is missing or wrong")
mode = stat.S_IMODE(os.stat("/app/keys/notary.key").st_mode)
if mode & 0o077 or not mode & 0o400:
    fail(f"/app/keys/notary.key has mode {mode:04o}: it must be readable by its owner only")
if os.path.exists("/app/run/notaryd.pid") and read("/app/run/notaryd.pid").strip() == "10423":
    fail("the stale pid file is still there")
if hashlib.sha256(read("/app/keys/notary.key").encode()).hexdigest() != "d3d58adb7a02d8430cbf621b9f24c09ca71628224630a20871e85ba1f4ca316f":
    fail("/app/keys/notary.key was modified")
if hashlib.sha256(read("/app/bin/notaryd").encode()).hexdigest() != "bcf3f2b78ac8b4811896882f7c938cac32bdce2f795c81b4f0707859258bb9f2":
    fail("/app/bin/notaryd was modified")
if hashlib.sha256(read("/app/data/manifest.txt").encode()).hexdigest() != "394554df85b06f1a49d3bba7a0c6e658d3881fad0c302f117855535196763349":
    fail("/app/data/manifest.txt was modified")
print("PASS")
