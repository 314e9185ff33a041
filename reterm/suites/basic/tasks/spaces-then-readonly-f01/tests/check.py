import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/export/notes.bundle") != '### Q3 review.md\n# Q3 review\ntango 31\n### Team Sync.md\n# Team Sync\ngamma 92\n### budget draft 2.md\n# budget draft 2\njuniper 28\n### march plan.md\n# march plan\nfjord 3\n### retro notes.md\n# retro notes\npixel 98\n### todo.md\n# todo\norbit 87\n':
    fail("/app/export/notes.bundle does not hold exactly the .md notes")
if hashlib.sha256(read("/app/notes/Team Sync.md").encode()).hexdigest() != "f669ee808fbddee95aa1a7e692316ece4ddf66e835cb40296714c1d703b8b812":
    fail("/app/notes/Team Sync.md was modified")
if hashlib.sha256(read("/app/notes/fjord/todo.md").encode()).hexdigest() != "e1fc7bc5d36546dbb078c7a8134c977c7b208dc2f625b4e5cd22fb86d16e71c9":
    fail("/app/notes/fjord/todo.md was modified")
if hashlib.sha256(read("/app/notes/march plan.md").encode()).hexdigest() != "a3048656a1b0ec0369b993002813d84a9e3e1fd7b23eaee89e3383f9e21f47a4":
    fail("/app/notes/march plan.md was modified")
if hashlib.sha256(read("/app/notes/budget draft 2.md").encode()).hexdigest() != "3bae538804b5731f35e90a85cb6845dfd4bd9989d49face460f21e170a72c8a3":
    fail("/app/notes/budget draft 2.md was modified")
if hashlib.sha256(read("/app/notes/fjord/Q3 review.md").encode()).hexdigest() != "09e76f7dddafc0e1a7cf5532b615a904092f6fac093d3fcfd73d11e3dba0e200":
    fail("/app/notes/fjord/Q3 review.md was modified")
if hashlib.sha256(read("/app/notes/2024/maple team/retro notes.md").encode()).hexdigest() != "2863e1a802f8cc920d54c09e42b33dad5b0f844efe9f05a3759df93c0f518d3a":
    fail("/app/notes/2024/maple team/retro notes.md was modified")
if hashlib.sha256(read("/app/bin/bundle").encode()).hexdigest() != "46d5c1dd337529c0b361e1430b713c362ff215110206de0017201fa8425c4116":
    fail("/app/bin/bundle was modified")
print("PASS")
