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
want = {'gamma lumen.md': '5cbd3907fbab02b64bf37c322b9341dac5986a14a5fb81330f76f1d1d425d6ce', 'maple.md': 'ce4c0eb7cbb662e380dcd0975f58978d22938b88c87aeed13e08d705c119ceaa', 'final cedar v3.md': '919981dfc5ed63111fa708945edd9edc7465b4f5ddad1483cebc24553d3dfb63', "sierra's orbit.md": 'cdd954f9922b61984da6d76a41111f700240f32d099963f74eb7571f6a0cbf04'}
if sorted(got) != sorted(want):
    fail(f"files under /app/collected: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/collected/{k} does not have its original content")
got = {}
for r, dirs, fs in os.walk('/app/inbox'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/inbox')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'gamma lumen.md': '5cbd3907fbab02b64bf37c322b9341dac5986a14a5fb81330f76f1d1d425d6ce', 'ember/maple.md': 'ce4c0eb7cbb662e380dcd0975f58978d22938b88c87aeed13e08d705c119ceaa', 'ember/final cedar v3.md': '919981dfc5ed63111fa708945edd9edc7465b4f5ddad1483cebc24553d3dfb63', "sierra's orbit.md": 'cdd954f9922b61984da6d76a41111f700240f32d099963f74eb7571f6a0cbf04', 'ember/raven/gamma lumen.md.bak': '00c9805348b61f3636a983022dbddec9be4a48cc93fd7849f27a7c65a7f0dd1b', 'indigo backup/maple.txt': 'e110a793dc9ac5a558ba46d9e388641532bbcec76de970848c9a2d0c7939fc8a', 'notes fjord.txt': '732da130f2f191cc4b59cea9b2e803ac779463cc409627ebe3f6bf0eb5f86d5f', 'delta.md.old': 'ac6dce07ed35c2866b8d85726100b0ca16f66c7ef51c532015cd0a821a9e365f', 'old.md/README.txt': '50ec2fd918c73ee7b8772eeafda89bdf90c68ea1d4ecaa35050b7a50addaa790'}
if sorted(got) != sorted(want):
    fail(f"files under /app/inbox: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/inbox/{k} does not have its original content")
print("PASS")
