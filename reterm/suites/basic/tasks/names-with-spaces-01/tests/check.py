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
for r, dirs, fs in os.walk('/app/collected'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/collected')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'alpha vertex.log': '103c62759d8f5a320ecff407cc5864079e455a899a0b7bf8da978bbffc826455', 'bravo.log': '18bdf0e9b015c20cee0d17b3db1a97396cf3c266176a540ca799fa8909cacc4d', 'final orbit v3.log': '4844fb64a8125780fa58ddef72e648f77a2ba6e3834148db0a6870535355823a', 'indigo\npixel.log': '748e5b9c380fcca7916a56a3d847cb8e20b59324b5b87e26fd84045e4c3a2521'}
if sorted(got) != sorted(want):
    fail(f"files under /app/collected: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/collected/{k} does not have its original content")
got = {}
for r, dirs, fs in os.walk('/app/shared'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/shared')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'sierra/umber/alpha vertex.log': '103c62759d8f5a320ecff407cc5864079e455a899a0b7bf8da978bbffc826455', 'bravo.log': '18bdf0e9b015c20cee0d17b3db1a97396cf3c266176a540ca799fa8909cacc4d', 'sierra/umber/final orbit v3.log': '4844fb64a8125780fa58ddef72e648f77a2ba6e3834148db0a6870535355823a', 'indigo\npixel.log': '748e5b9c380fcca7916a56a3d847cb8e20b59324b5b87e26fd84045e4c3a2521', 'sierra/alpha vertex.log.bak': '3d4d9fabf4e5c261445d4f89dbfb0eb3628871dc618b4ba2942cfb5ca47885b9', 'sierra/bravo.txt': '40fa4210fd3fb41773b13d7e54ec9c3da95ffab64136d52dbccb3475c9ce6750', 'notes tango.txt': 'fe8c3433c0760a594d6f6d06280e8f9f9508daf76b2fc6c8b63c9d360137d64b', 'kepler.log.old': '36a78a69c3950390f19ba63e024bec72302016eac641604b4892fce905648fac', 'old.log/README.txt': '50ec2fd918c73ee7b8772eeafda89bdf90c68ea1d4ecaa35050b7a50addaa790'}
if sorted(got) != sorted(want):
    fail(f"files under /app/shared: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/shared/{k} does not have its original content")
print("PASS")
