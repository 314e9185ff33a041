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
if read("/app/out/manifest.sig") != '830201f2a2b61b72a93def0ef0cf1faf37f7ad3d05aa490725aaad2bea58924b  manifest.txt\n':
    fail("/app/out/manifest.sig is missing or wrong")
mode = stat.S_IMODE(os.stat("/app/secrets/sign.key").st_mode)
if mode & 0o077 or not mode & 0o400:
    fail(f"/app/secrets/sign.key has mode {mode:04o}: it must be readable by its owner only")
if os.path.exists("/app/tmp/signd.pid") and read("/app/tmp/signd.pid").strip() == "14479":
    fail("the stale pid file is still there")
if hashlib.sha256(read("/app/secrets/sign.key").encode()).hexdigest() != "fc1886e1d24f2e24ad944fb3eb130fa1adac6c5988fbc50324876e8440c87213":
    fail("/app/secrets/sign.key was modified")
if hashlib.sha256(read("/app/bin/signd").encode()).hexdigest() != "e2842c669733baedd6e70efcd3dc6754ccf3df797fd66ebf48e3f2f1da8b4fb2":
    fail("/app/bin/signd was modified")
if hashlib.sha256(read("/app/data/manifest.txt").encode()).hexdigest() != "702c336fdcd5357f26eb7837312dd98f72294053b39d09e4d394c0f1bf15e820":
    fail("/app/data/manifest.txt was modified")
print("PASS")
