import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = {}
for r, dirs, fs in os.walk('/app/uploads'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/uploads')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'orbit old/bravo copy.tmp': '626b817d51b4186efcba464ebec5d7b4db103885ae5391487755591d3c6a4a7b', 'orbit old/fjord.tmp': '3440561aa992c32293eab2694c6253cea0b9b590a9582c35068f660d800a5f2b', 'orbit/umber.txt': 'bfc1e8e2132facd82cee22996939eb48a269b751d203cb400a9f02f8e6ca8f1b', 'alpha/juniper.tmp.keep': 'aa53cf38c28f48910d4666e3437173e3337b7c30619d926fb217f4f67454b147', 'harbor.tmp/data.txt': '8dc4124d92541cd143b98b259904a503f401674fca235d23ece5fc23fc417782', 'README.txt': 'fd7e64ca2218141dde386f8f78dcfb7c52cf7fbaf7fedc860bd6d9c98c6dd1cf', 'KEEP': '93fd94802ff899c7f205c9010e4abad9b656f79afdaebf5e8c08debb413473c2'}
if sorted(got) != sorted(want):
    fail(f"files under /app/uploads: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/uploads/{k} does not have its original content")
for p in ['alpha', 'harbor.tmp', 'maple/nova', 'orbit', 'orbit old']:
    if not os.path.isdir(os.path.join('/app/uploads', p)):
        fail(f"directory /app/uploads/{p} was removed")
print("PASS")
