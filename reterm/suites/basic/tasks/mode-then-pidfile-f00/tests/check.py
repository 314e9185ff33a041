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
if read("/app/out/manifest.sig") != 'f305a225646e8da29eb3156edcc9611ebf4398a0ea8e0da01c7505683d607248  manifest.txt\n':
    fail("/app/out/manifest.sig is missing or wrong")
mode = stat.S_IMODE(os.stat("/app/keys/notary.key").st_mode)
if mode & 0o077 or not mode & 0o400:
    fail(f"/app/keys/notary.key has mode {mode:04o}: it must be readable by its owner only")
if os.path.exists("/app/tmp/notaryd.pid") and read("/app/tmp/notaryd.pid").strip() == "23634":
    fail("the stale pid file is still there")
if hashlib.sha256(read("/app/keys/notary.key").encode()).hexdigest() != "7dc6993b0039cc17cc56a696f9555fc5c7c0b5c5ada6fc805c1a91d8684791d6":
    fail("/app/keys/notary.key was modified")
if hashlib.sha256(read("/app/bin/notaryd").encode()).hexdigest() != "6e983445822ae68eb6df95651641611d42bf7686adef08dbea96475b62cfc177":
    fail("/app/bin/notaryd was modified")
if hashlib.sha256(read("/app/data/manifest.txt").encode()).hexdigest() != "21ec28e2813f2a21ed3188650d399a63ee699c75877c17da078ac69e658dd26d":
    fail("/app/data/manifest.txt was modified")
print("PASS")
