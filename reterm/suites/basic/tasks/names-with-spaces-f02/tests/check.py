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
want = {'juniper indigo.md': 'd51fbf83d9f144074d4e803a6dc83770bb84317f633f3565be1e902f5c6a5baf', 'umber.md': '43c26192b9c0744623ca738065cf7938a313e246836eb50d6f28f7bec50c8aaa', 'final bravo v4.md': '057bdd5fad480d87593e269db45ee4802eb54714a06b557d459236e3da54e3ff', 'cedar\npixel.md': '53a88de10015aafdd4be8a75496465b90ed7a5bd0f613146fe04ec2872fdaf8d', 'sierra.md': 'b4b23954f8c81fc7dbb357b6ce9eb2869b6376379b2cfefba64943b3f518adbe', 'delta.md': '2450955a8bf0d38c2ef66bd5037f6ab5813f427e7a3e36069bc226740ee99444'}
if sorted(got) != sorted(want):
    fail(f"files under /app/collected: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/collected/{k} does not have its original content")
got = {}
for r, dirs, fs in os.walk('/app/exports'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/exports')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'ember/juniper indigo.md': 'd51fbf83d9f144074d4e803a6dc83770bb84317f633f3565be1e902f5c6a5baf', 'ember/umber.md': '43c26192b9c0744623ca738065cf7938a313e246836eb50d6f28f7bec50c8aaa', 'ember/quartz/final bravo v4.md': '057bdd5fad480d87593e269db45ee4802eb54714a06b557d459236e3da54e3ff', 'alpha Q3/cedar\npixel.md': '53a88de10015aafdd4be8a75496465b90ed7a5bd0f613146fe04ec2872fdaf8d', 'ember/sierra.md': 'b4b23954f8c81fc7dbb357b6ce9eb2869b6376379b2cfefba64943b3f518adbe', 'ember/delta.md': '2450955a8bf0d38c2ef66bd5037f6ab5813f427e7a3e36069bc226740ee99444', 'ember/quartz/juniper indigo.md.bak': 'd34701a03d81b3f0e018ca5d8b6603838f55286a6c48249b538e232f1f64fbdf', 'alpha Q3/umber.txt': '26f7786043b0039e9282bc9732982cf25ea77f305231eb1eb19d63035fee3a19', 'notes delta.txt': '4675e5c06d42e9aaf95f4c3c93e9606affe618bb81eed5f5d2460adf8b8964cd', 'ember/quartz/kepler.md.old': 'cc1ea8198ed09f7b2debbbd105931b771624cb9c865c2c8e9c4dc50f68852cd3', 'old.md/README.txt': '50ec2fd918c73ee7b8772eeafda89bdf90c68ea1d4ecaa35050b7a50addaa790'}
if sorted(got) != sorted(want):
    fail(f"files under /app/exports: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/exports/{k} does not have its original content")
print("PASS")
