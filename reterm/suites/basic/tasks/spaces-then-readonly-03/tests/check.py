import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/export/notes.bundle") != '### On call log.md\n# On call log\nmaple 52\n### Q3 review.md\n# Q3 review\njuniper 94\n### budget draft 2.md\n# budget draft 2\nfjord 57\n### ideas.md\n# ideas\njuniper 96\n### march plan.md\n# march plan\nbravo 31\n### retro notes.md\n# retro notes\nvertex 80\n':
    fail("/app/export/notes.bundle does not hold exactly the .md notes")
if hashlib.sha256(read("/app/notes/tango/budget draft 2.md").encode()).hexdigest() != "fe659b95130caed8ef0d841a8a9131f5ce6378a888895bbfb0cb703c6f689f10":
    fail("/app/notes/tango/budget draft 2.md was modified")
if hashlib.sha256(read("/app/notes/On call log.md").encode()).hexdigest() != "672396be88536f85796d3bd3c506c6d28a8890404143602f01b4ef4a58ede234":
    fail("/app/notes/On call log.md was modified")
if hashlib.sha256(read("/app/notes/ideas.md").encode()).hexdigest() != "1387e26726eb500ad93d471066f92dd5f09b094234386bf90721443570d9f73d":
    fail("/app/notes/ideas.md was modified")
if hashlib.sha256(read("/app/notes/march plan.md").encode()).hexdigest() != "9404b1bd15937c70386c377720e007d0b2461c8f0fc3e6d2322305d2e5dbb5f8":
    fail("/app/notes/march plan.md was modified")
if hashlib.sha256(read("/app/notes/retro notes.md").encode()).hexdigest() != "46b82a8aef41745b9d301cb5e5e2d7063371d95bb688942d7c0b592b2f13ca7a":
    fail("/app/notes/retro notes.md was modified")
if hashlib.sha256(read("/app/notes/Q3 review.md").encode()).hexdigest() != "dae84edbe5f6923a2424e1a2aae045680d5a44397ec9f975008c051b20629fd2":
    fail("/app/notes/Q3 review.md was modified")
if hashlib.sha256(read("/app/bin/bundle").encode()).hexdigest() != "46d5c1dd337529c0b361e1430b713c362ff215110206de0017201fa8425c4116":
    fail("/app/bin/bundle was modified")
print("PASS")
