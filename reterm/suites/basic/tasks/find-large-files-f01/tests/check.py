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
want = {'juniper old/quartz copy.swp': 'bfdb5ea168c79edef4470db41d748eb2adecdcdc076474861bc1d6f4611fadbd', 'juniper old/pixel.swp': 'd172e3c2082acccd96c6c3c087052b7df603bef2d8498ec8fc1a858ffae35177', 'orbit/fjord.txt': 'd571596c5ee2e34c6d8af05f91aff2e5dea8d9e4c7a4f6e3a27c0b56880b0b49', 'orbit/alpha.swp.keep': '3aafe7e613a614023e3b49185d2598cfa65be3a980cb308bbd676cc53e6f8d22', 'cedar.swp/data.txt': '8dc4124d92541cd143b98b259904a503f401674fca235d23ece5fc23fc417782', 'README.txt': '62fd6035006ecfde6b6d0c955abbaa2c4eba8ee89251dd460fa3a2cf5e506855', 'KEEP': '75952a07d0c14435f65f50b4663af63da9410adfdcf23fbf8e3062b0bd5b7ea2'}
if sorted(got) != sorted(want):
    fail(f"files under /app/uploads: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/uploads/{k} does not have its original content")
for p in ['cedar.swp', 'harbor', 'juniper', 'juniper old', 'orbit']:
    if not os.path.isdir(os.path.join('/app/uploads', p)):
        fail(f"directory /app/uploads/{p} was removed")
print("PASS")
