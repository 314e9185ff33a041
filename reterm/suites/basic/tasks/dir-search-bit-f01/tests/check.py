import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

got = read("/app/tally.txt")
if got != 'north 550\nsouth 362\nvalley 289\n':
    fail(f"/app/tally.txt is {got!r}, expected 'north 550\nsouth 362\nvalley 289\n'")
for path, digest in {'/app/shared/south/ember.txt': 'd328b9f913094a90d5f79b2e5bd1f9f85560ba8cdc039ff71fc5caeaecb5cec1', '/app/shared/south/harbor.txt': '990d3c91287f1e33948e3fab7f05f155d7c154908fc0e959b15b1838f37ba9c2', '/app/shared/valley/pixel.txt': 'cf86e511717ccd735ce389b7c3a19aaab756cc049a9ba2eea40bf42029df34a0', '/app/shared/valley/quartz.txt': 'a01fe1d9652cbda25bb65e35fe0d4bf2a21f471a87bbcf0fadedefb305f87cc7', '/app/shared/north/bravo.txt': '69862331a4a93bac2488893c7c8a497005b610a4a55458ba28a563af2c222717', '/app/shared/north/fjord.txt': '1202a3681131209537f468c242a77a643b3e3d4e42097396d0cd4d2399402e12', '/app/shared/north/raven.txt': '32f48bed41f245409663757fe22aa1d78223b84ab020a8640cdf732ac6a250dc', '/app/bin/collect.py': 'd4a8cb979bab292188196f10bab3ee0a4db3b81a0c9c89e929c115a550775983'}.items():
    if hashlib.sha256(read(path).encode()).hexdigest() != digest:
        fail(f"{path} was modified")
print("PASS")
for path, want in {'/app/shared': 493, '/app/shared/south': 493, '/app/shared/valley': 493, '/app/shared/north': 493, '/app/shared/south/ember.txt': 420, '/app/shared/south/harbor.txt': 420, '/app/shared/valley/pixel.txt': 420, '/app/shared/valley/quartz.txt': 420, '/app/shared/north/bravo.txt': 420, '/app/shared/north/fjord.txt': 420, '/app/shared/north/raven.txt': 420}.items():
    if not os.path.exists(path):
        fail(f"{path} is missing")
    got = os.stat(path).st_mode & 0o7777
    if got != want:
        fail(f"{path} has mode {got:04o}, expected {want:04o}")
