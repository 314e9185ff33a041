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
if read("/app/out/manifest.sig") != '5a4a6132c231029721e243c3c285ba965281ade0d856175ca9a76172847e05de  manifest.txt\n':
    fail("/app/out/manifest.sig is missing or wrong")
mode = stat.S_IMODE(os.stat("/app/keys/release.key").st_mode)
if mode & 0o077 or not mode & 0o400:
    fail(f"/app/keys/release.key has mode {mode:04o}: it must be readable by its owner only")
if os.path.exists("/app/tmp/signd.pid") and read("/app/tmp/signd.pid").strip() == "24314":
    fail("the stale pid file is still there")
if hashlib.sha256(read("/app/keys/release.key").encode()).hexdigest() != "3de1140efb6979efd6015eb04be6b1abf42287f7520083e3c36d3170008f535d":
    fail("/app/keys/release.key was modified")
if hashlib.sha256(read("/app/bin/signd").encode()).hexdigest() != "ba958d71bb5ead2fcf4dd3275e448fa36e29f5bbeee09b105f213893faa2653d":
    fail("/app/bin/signd was modified")
if hashlib.sha256(read("/app/data/manifest.txt").encode()).hexdigest() != "8b432e47a6c1f884e6a1f380de0b46a2584aeef4e877d056326e02cc488ffb77":
    fail("/app/data/manifest.txt was modified")
print("PASS")
