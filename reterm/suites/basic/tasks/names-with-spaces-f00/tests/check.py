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
want = {'fjord alpha.md': '9ae20b540a4b736c1af7a787f857db4e0ad1afb54e911ef288b02eb0c39f72bd', 'nova.md': '5f43f4a981fc6aed3ee04b2a509b8e03b4b537b9e5abb22e6c61ab7f68dc7e17', 'final indigo v3.md': 'ce1dc8722b6831b7e50a5980938a5bbfd8c35919784d6c9ae6f57285bc992886', 'harbor  juniper.md': 'f651038932e47dfe13d3fedaaffd028475be3df3da5364dc241f40f0ba8e13c7', 'umber.md': '9c7b8c7ac747af6e33614751ef0f7c3fed0356d893a6562cccd8a53f1604d8c6'}
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
want = {'gamma/lumen/fjord alpha.md': '9ae20b540a4b736c1af7a787f857db4e0ad1afb54e911ef288b02eb0c39f72bd', 'gamma/lumen/nova.md': '5f43f4a981fc6aed3ee04b2a509b8e03b4b537b9e5abb22e6c61ab7f68dc7e17', 'gamma/final indigo v3.md': 'ce1dc8722b6831b7e50a5980938a5bbfd8c35919784d6c9ae6f57285bc992886', 'gamma/harbor  juniper.md': 'f651038932e47dfe13d3fedaaffd028475be3df3da5364dc241f40f0ba8e13c7', 'bravo Q3/umber.md': '9c7b8c7ac747af6e33614751ef0f7c3fed0356d893a6562cccd8a53f1604d8c6', 'gamma/lumen/fjord alpha.md.bak': '394113cfeac61d4cf9c3c35ee9867fda5ed1961f8a3dddb252f930eeb86db6cf', 'gamma/nova.txt': '840b4e2dc43f953242d93b931716bfb35610e1fb9afa91bb9c153c0725cdd30f', 'gamma/lumen/notes ember.txt': 'af9818d29305e2903506ffa2bd5168c845a120d52fb49b157d781f78fe2bbad0', 'gamma/maple.md.old': '08bff5c11ae7035efbfbf2fe002fc25e6d7dbc5ef6ee83ec91081d4548529ef0', 'old.md/README.txt': '50ec2fd918c73ee7b8772eeafda89bdf90c68ea1d4ecaa35050b7a50addaa790'}
if sorted(got) != sorted(want):
    fail(f"files under /app/exports: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/exports/{k} does not have its original content")
print("PASS")
