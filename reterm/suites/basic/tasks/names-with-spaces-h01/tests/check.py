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
want = {'kepler maple.log': '5c0dd853e928492a3190c7fde0bc319c1e32e5c6fae1f5c2d0306f728e14be59', 'lumen.log': '31cb04644d80ea6c60c1edc073619a92e04529b79fca33deac56f79ad2839624', 'final juniper v9.log': 'f2f38bd702f6ec18f2af4f18087054cb60c7efb1abcecd00233524506810f6f0', "alpha's fjord.log": 'e0b4f8784f362e4532e73b29cce50387c07147fbed23d27bddeeeffc7fa7516b'}
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
want = {'kepler maple.log': '5c0dd853e928492a3190c7fde0bc319c1e32e5c6fae1f5c2d0306f728e14be59', 'nova/gamma/lumen.log': '31cb04644d80ea6c60c1edc073619a92e04529b79fca33deac56f79ad2839624', 'final juniper v9.log': 'f2f38bd702f6ec18f2af4f18087054cb60c7efb1abcecd00233524506810f6f0', "alpha's fjord.log": 'e0b4f8784f362e4532e73b29cce50387c07147fbed23d27bddeeeffc7fa7516b', 'bravo Q3/kepler maple.log.bak': '66bbd6606f5cbb613d548beef303ad89828038d94123b1d8a9fb79361ff5a6be', 'nova/gamma/lumen.txt': 'c9f2088ab33c107b7e9c5e04a9c8fab50aadaa711bd2da3b5d0ff2231f63e626', 'notes tango.txt': 'a59ce1300e46e6f128db9903436b2b8efb1c6e7f401550ccc9fb7385cc92358b', 'nova/gamma/pixel.log.old': 'b7f0a0c0017ae561b47bfd2576accf839dae8d802e54627fe6a781107851b41d', 'old.log/README.txt': '50ec2fd918c73ee7b8772eeafda89bdf90c68ea1d4ecaa35050b7a50addaa790'}
if sorted(got) != sorted(want):
    fail(f"files under /app/shared: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/shared/{k} does not have its original content")
print("PASS")
