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
want = {'orbit gamma.csv': '0bcceec2c3d4dda9bbd2221ba9c62f364666c19032f3b580069647c452411e1c', 'sierra.csv': '19eecd1099214c2b215f07ee3bb72822e49da9a1660017403784f1334a2941d0', 'final quartz v4.csv': 'f409cfe1f530f3990d6d5e73a6caa9b380a58805eb4e322e7971414fc43697e0', 'pixel  maple.csv': '2d7af38c057d231fac6bd2cf2df79788ff9d982f05db12dc0a34d2a946b93859', 'ember.csv': '5d65b27bc6f21f1519ae9329b55c3159eb8be6ca30eacb67031b8d515fa3753c'}
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
want = {'alpha/raven/orbit gamma.csv': '0bcceec2c3d4dda9bbd2221ba9c62f364666c19032f3b580069647c452411e1c', 'alpha/raven/sierra.csv': '19eecd1099214c2b215f07ee3bb72822e49da9a1660017403784f1334a2941d0', 'alpha/raven/final quartz v4.csv': 'f409cfe1f530f3990d6d5e73a6caa9b380a58805eb4e322e7971414fc43697e0', 'kepler backup/pixel  maple.csv': '2d7af38c057d231fac6bd2cf2df79788ff9d982f05db12dc0a34d2a946b93859', 'ember.csv': '5d65b27bc6f21f1519ae9329b55c3159eb8be6ca30eacb67031b8d515fa3753c', 'alpha/raven/orbit gamma.csv.bak': '5844ccaf84eb27ad88a5c1e6ccef232d9567d25074c2405cceb45410961f1059', 'kepler backup/sierra.txt': 'd736c9494358d73e635f8a1f8a5177ddf9b719d8b257de748b11283de7f4e034', 'alpha/raven/notes nova.txt': '971165029cfbf81eb50f7e0e277bd711f734e11515d84f3e7cb464e9ffa94092', 'alpha/raven/indigo.csv.old': '86d476f400fbc1af7078935366d829ef979a7bfc73f1d7ca649fa7d2cec2017b', 'old.csv/README.txt': '50ec2fd918c73ee7b8772eeafda89bdf90c68ea1d4ecaa35050b7a50addaa790'}
if sorted(got) != sorted(want):
    fail(f"files under /app/shared: missing {sorted(set(want) - set(got))}, "
         f"unexpected {sorted(set(got) - set(want))}")
for k in want:
    if got[k] != want[k]:
        fail(f"/app/shared/{k} does not have its original content")
print("PASS")
