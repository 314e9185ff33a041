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
want = {'delta nova.json': '95fac0406d6efeb5465e5746e157800bb8f4bca56f1bc3325fc768e8d371469f', 'tango.json': '8173a35baa3be3c0185bd00e53513e03b7ad7c5b4c4458b1c377f561b71e04b9', 'final juniper v3.json': '4fa904a9ea2164450b8954f73a5f51f7fb6a8769aba7e248716740e251d7b630', 'lumen\norbit.json': 'd50d631ec32862b8d3f40dde986c1dae4ba98071a6fcf7bc06ec91d0d02c4635', 'ember.json': '52c0ffd810fa960fe7444e658d1886b472557ec93c3af01a7d16ebc7b28f9a38', 'umber.json': '6250625fb71eb14d335bf707a6bfeadce41b4e9299011764499e50e438d83884'}
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
want = {'delta nova.json': '95fac0406d6efeb5465e5746e157800bb8f4bca56f1bc3325fc768e8d371469f', 'tango.json': '8173a35baa3be3c0185bd00e53513e03b7ad7c5b4c4458b1c377f561b71e04b9', 'final juniper v3.json': '4fa904a9ea2164450b8954f73a5f51f7fb6a8769aba7e248716740e251d7b630', 'harbor/raven/lumen\norbit.json': 'd50d631ec32862b8d3f40dde986c1dae4ba98071a6fcf7bc06ec91d0d02c4635', 'ember.json': '52c0ffd810fa960fe7444e658d1886b472557ec93c3af01a7d16ebc7b28f9a38', 'harbor/umber.json': '6250625fb71eb14d335bf707a6bfeadce41b4e9299011764499e50e438d83884', 'indigo backup/delta nova.json.bak': '7064a2a43e7eccfbdbbed36faf4dffaac2c066665e0a70d2c24e001df45c9379', 'harbor/tango.txt': 'bedcd217cfdc1912110daff5053bd99aab7d4426a9af2eec3bf0084d977a31d9', 'harbor/raven/notes umber.txt': 'ce9f2d6f39de2df8f967c5b59d896767a2d76b679e5432f85a6dc180057bae9d', 'harbor/quartz.json.old': 'f22c62d74bd870add24c8a07fb07ef790c7ec9fda16fd0cdcc524d3c8947a5c6', 'old.json/README.txt': '50ec2fd918c73ee7b8772eeafda89bdf90c68ea1d4ecaa35050b7a50addaa790'}
if sorted(got) != sorted(want):
    fail(f"files under /app/exports: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/exports/{k} does not have its original content")
print("PASS")
