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
for r, dirs, fs in os.walk('/app/storage'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/storage')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'nova/gamma.log': 'd6a2a6188347bb1b94c0d403f67ab8a17a678eb9797a1383b957ddefc447ef4a', 'sierra old/fjord.log': '29d59e089a0ce4f479d2d42916f467a3ace4bdd9f558b39bf0711dcadef55aa1', 'sierra/pixel.txt': '923b4c5ea11b81fd9eb89361acc2e37d456fe5ec99181bcc778f1673a12cd185', 'cedar/quartz.log.gz': 'aa5e2cc7a4eda5b616aaa18de0d6768d9693559ee9af53f358869321b76f1218', 'umber.log/data.txt': '8dc4124d92541cd143b98b259904a503f401674fca235d23ece5fc23fc417782', 'README.txt': '01ab6bf210cbb11d74d669d6098e0b6466500a8497a24e643c190f845ebc91b8'}
if sorted(got) != sorted(want):
    fail(f"files under /app/storage: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/storage/{k} does not have its original content")
for p in ['cedar', 'cedar/kepler', 'nova', 'sierra', 'sierra old', 'umber.log']:
    if not os.path.isdir(os.path.join('/app/storage', p)):
        fail(f"directory /app/storage/{p} was removed")
print("PASS")
