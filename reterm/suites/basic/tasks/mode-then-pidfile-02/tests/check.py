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
if read("/app/out/manifest.sig") != '233f08f3e38ecfca0c417ffc2d451fbb2e54126737703840ad0d0e010a9b4c80  manifest.txt\n':
    fail("/app/out/manifest.sig is missing or wrong")
mode = stat.S_IMODE(os.stat("/app/secrets/stamp.key").st_mode)
if mode & 0o077 or not mode & 0o400:
    fail(f"/app/secrets/stamp.key has mode {mode:04o}: it must be readable by its owner only")
if os.path.exists("/app/var/run/stampd.pid") and read("/app/var/run/stampd.pid").strip() == "29449":
    fail("the stale pid file is still there")
if hashlib.sha256(read("/app/secrets/stamp.key").encode()).hexdigest() != "68022116204228036c8e5be161911d2e9d260dd3f0f2c68dfb460aedafbe553b":
    fail("/app/secrets/stamp.key was modified")
if hashlib.sha256(read("/app/bin/stampd").encode()).hexdigest() != "a2e6b2cdb847e46a0dd83fed272f8fda0743fa0f4740bf481f9b85fa55b8936b":
    fail("/app/bin/stampd was modified")
if hashlib.sha256(read("/app/data/manifest.txt").encode()).hexdigest() != "764cb68e13e5f7659889a440fdc7d5cbee7e88b8008002507d6e3d5970803a42":
    fail("/app/data/manifest.txt was modified")
print("PASS")
