import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/matches.txt")
if got != '/app/src/.config/umber.env\n/app/src/.github/workflows/harbor.yml\n/app/src/deploy/fjord.tpl\n/app/src/gamma/.pixelrc\n/app/src/scripts/run_indigo\n':
    fail(f"matches.txt is {got!r}, expected 5 paths")
got = {}
for r, dirs, fs in os.walk('/app/src'):
    for f in fs:
        p = os.path.join(r, f)
        if os.path.isfile(p) and not os.path.islink(p):
            got[os.path.relpath(p, '/app/src')] = hashlib.sha256(open(p, "rb").read()).hexdigest()
want = {'lumen/sierra.py': '4c1127696002bdd5d87b491d773b4ebf880871889b803d271d9ba7b4d4f67aca', 'deploy/delta.tpl': 'c529be0e679ea5aa3118349de2d40b39e75122ba12647374616ac17deafc691a', 'docs/bravo.md': 'b75bb98e712e1ac0b9911b3d39dadac2c14545ac4fbd600ddd1851fc5cbfc144', '.config/indigo.env': '465b75a6ab51733a9bce99561cfbacdbb130d8a34fc8e132a7173e109ba29bba', 'gamma/notes.txt': '97f7273b9311daf2df8f634dfc952742327ccb1067e8b5224baabe1511ec81da', 'scripts/umber.sh': 'ee152014a53abafebe27252505b0bf9f19cfa64e89ee89791d61884ebed61a28', '.cache/fjord.json': '0c6fd830dd52daf48632051c5df037e335cc1a9b45c3f6805272876905a50ba5', 'gamma/.pixelrc': 'f4e5bbcddb23577ae4d07be2ef35226eca3ef7faeaaade5fb7710fad25d78bfa', 'scripts/run_indigo': '8e4bd7ba591f6cdab3331ea94d223ad238961b24bda136050959e9a6cfc84ec6', 'deploy/fjord.tpl': 'd5b0be304780f499ea73fe86db0842bc9f8e800171e56e20912b5dc1a9fd81d2', '.github/workflows/harbor.yml': '60c28dc98ee6b4025f56d2dfb72ce5fbfe59413d1c21f4dc61b881f4ed6fbe4a', '.config/umber.env': '4064cd84e04d469599de76015b61a23b17f47ea4107c7621f6a12b293524bddf'}
if sorted(got) != sorted(want):
    fail(f"files under /app/src: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/src/{k} does not have its original content")
print("PASS")
