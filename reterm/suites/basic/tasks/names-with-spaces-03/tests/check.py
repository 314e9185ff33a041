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
want = {'pixel raven.json': 'dd71a4cec5c37a045d79bf0c1f5b9dc434dfa557099d7e598ecf37a643aa0739', 'harbor.json': 'ad875afa137a0d8cefa0ab4d3cf5ada75480c41231f49ddf028cc24e2df422ad', 'final orbit v6.json': 'd139f770fb37f505128614126a18ce3a5343bfa1bab274f96502b6d329a9a52f', 'quartz\nsierra.json': '780d4f51c5720086c77b7dd6acfaef906c15fa2b5646cea82bf44bf97093abd9', 'maple.json': '67eb73c88ffa04461bc75a019bcbd666a2eedf0919e64e0729d1992aca1a1ed1'}
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
want = {'indigo/pixel raven.json': 'dd71a4cec5c37a045d79bf0c1f5b9dc434dfa557099d7e598ecf37a643aa0739', 'indigo/alpha/harbor.json': 'ad875afa137a0d8cefa0ab4d3cf5ada75480c41231f49ddf028cc24e2df422ad', 'final orbit v6.json': 'd139f770fb37f505128614126a18ce3a5343bfa1bab274f96502b6d329a9a52f', 'indigo/quartz\nsierra.json': '780d4f51c5720086c77b7dd6acfaef906c15fa2b5646cea82bf44bf97093abd9', 'indigo/maple.json': '67eb73c88ffa04461bc75a019bcbd666a2eedf0919e64e0729d1992aca1a1ed1', 'indigo/pixel raven.json.bak': '10ade4e8493159ffdaaadcd2da4bd623b6d0ee7185132a796b9754829e94cda1', 'harbor.txt': '6848c6c7cfecd0a9c7f7e0303cc16f6273f743ccb1bf7ddc8a467f30b4fbae17', 'juniper backup/notes tango.txt': '98fbe54ef0dcadfa08e423d8c22a0eafa293e4df7f070e6ed8e6c7baa0fab927', 'lumen.json.old': '0c215a36c72fb658dba6d56758f0e975acc49e2b81542f65c7c755c5e14fbf6f', 'old.json/README.txt': '50ec2fd918c73ee7b8772eeafda89bdf90c68ea1d4ecaa35050b7a50addaa790'}
if sorted(got) != sorted(want):
    fail(f"files under /app/shared: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/shared/{k} does not have its original content")
print("PASS")
