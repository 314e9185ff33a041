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
if read("/app/out/manifest.sig") != 'e919ddf7501abec2ac67c23ed3c2193bf917ecb4a1084f9a07381719b9e764c3  manifest.txt\n':
    fail("/app/out/manifest.sig is missing or wrong")
mode = stat.S_IMODE(os.stat("/app/etc/ssl/release.key").st_mode)
if mode & 0o077 or not mode & 0o400:
    fail(f"/app/etc/ssl/release.key has mode {mode:04o}: it must be readable by its owner only")
if os.path.exists("/app/var/run/stampd.pid") and read("/app/var/run/stampd.pid").strip() == "18326":
    fail("the stale pid file is still there")
if hashlib.sha256(read("/app/etc/ssl/release.key").encode()).hexdigest() != "b7c27d45357c4e0656b1cd9ee7f41401557d94a053030af66fc04e1894a9721a":
    fail("/app/etc/ssl/release.key was modified")
if hashlib.sha256(read("/app/bin/stampd").encode()).hexdigest() != "daf3d4b965876d2ffea23c937c2611579fca7409165702a6bae3cbb4e7533b18":
    fail("/app/bin/stampd was modified")
if hashlib.sha256(read("/app/data/manifest.txt").encode()).hexdigest() != "6196041194e42ab79905be1eb016ea10ce7208cd4272c2916bff0a690faecf8c":
    fail("/app/data/manifest.txt was modified")
print("PASS")
