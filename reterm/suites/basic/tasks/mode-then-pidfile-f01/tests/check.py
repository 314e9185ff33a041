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
if read("/app/out/manifest.sig") != '695da5aa48f3024c95975bb346ec5b9aea97859bf2bcda126f415874072da479  manifest.txt\n':
    fail("/app/out/manifest.sig is missing or wrong")
mode = stat.S_IMODE(os.stat("/app/keys/sign.key").st_mode)
if mode & 0o077 or not mode & 0o400:
    fail(f"/app/keys/sign.key has mode {mode:04o}: it must be readable by its owner only")
if os.path.exists("/app/tmp/signd.pid") and read("/app/tmp/signd.pid").strip() == "25421":
    fail("the stale pid file is still there")
if hashlib.sha256(read("/app/keys/sign.key").encode()).hexdigest() != "33f3469a9f53ec99b984242bf298f8df6163281b7d9b769e66bfac2cbe2b1fbe":
    fail("/app/keys/sign.key was modified")
if hashlib.sha256(read("/app/bin/signd").encode()).hexdigest() != "30d681c6fd1e62e0c5f49334cad0df831b65a8c30ecd1853568a6687a89efec2":
    fail("/app/bin/signd was modified")
if hashlib.sha256(read("/app/data/manifest.txt").encode()).hexdigest() != "0c5d7206fb92c213484d577e6407d859f0a10f5ff1cd33b3531b01fac71e8ae3":
    fail("/app/data/manifest.txt was modified")
print("PASS")
