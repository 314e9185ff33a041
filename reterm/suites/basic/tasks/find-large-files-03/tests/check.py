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
for r, dirs, fs in os.walk('/app/cache'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/cache')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'cedar/gamma/indigo.bin': 'b47acead1fbb48e00d6ccaba7a6179777c522910c6c146dafaca17faf23702ee', 'cedar/gamma/quartz.bin': 'de52c1973d0fb5367c210f38eaafc4e767c197642a9e9de8a829a610429acb60', 'bravo/pixel.txt': 'c6f367630af43ae720ba35a899eff786355ba306fe8023ae4cb1757df29aa70f', 'tango/orbit.bin.gz': '12f70951fbbd3cd18e05263ffe309d3c765c6d6fec6c746ad8c383e3b8c0f164', 'umber.bin/data.txt': '8dc4124d92541cd143b98b259904a503f401674fca235d23ece5fc23fc417782', 'README.txt': '01ab6bf210cbb11d74d669d6098e0b6466500a8497a24e643c190f845ebc91b8'}
if sorted(got) != sorted(want):
    fail(f"files under /app/cache: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/cache/{k} does not have its original content")
for p in ['bravo', 'bravo old', 'cedar/gamma', 'tango', 'umber.bin']:
    if not os.path.isdir(os.path.join('/app/cache', p)):
        fail(f"directory /app/cache/{p} was removed")
print("PASS")
