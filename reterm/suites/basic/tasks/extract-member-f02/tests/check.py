import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/restored/juniper/config/settings.ini")
if got != '# juniper 238\nvalue=757576\n':
    fail("restored file has the wrong content")
found = sorted(os.path.join(r, f) for r, _, fs in os.walk("/app/restored") for f in fs)
if found != ["/app/restored/juniper/config/settings.ini"]:
    fail(f"only the one file may be restored, found {found}")
if not os.path.isfile("/app/backup.tar.gz"):
    fail("the backup archive was removed")
print("PASS")
