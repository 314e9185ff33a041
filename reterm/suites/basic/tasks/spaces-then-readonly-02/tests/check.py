import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/export/notes.bundle") != '### On call log.md\n# On call log\nsierra 51\n### Q3 review.md\n# Q3 review\number 82\n### ideas.md\n# ideas\ngamma 52\n### march plan.md\n# march plan\nnova 50\n### retro notes.md\n# retro notes\njuniper 97\n### todo.md\n# todo\nalpha 23\n':
    fail("/app/export/notes.bundle does not hold exactly the .md notes")
if hashlib.sha256(read("/app/notes/gamma/Q3 review.md").encode()).hexdigest() != "390c2032a53ec5631031e27369efa578eaf44af520fec506ed269d6f506a44f3":
    fail("/app/notes/gamma/Q3 review.md was modified")
if hashlib.sha256(read("/app/notes/ideas.md").encode()).hexdigest() != "72b2567923c67ce6085ce263de65a01e87dacd59716765e037e564e45c9d5137":
    fail("/app/notes/ideas.md was modified")
if hashlib.sha256(read("/app/notes/2024/vertex team/retro notes.md").encode()).hexdigest() != "05c7597caca7560fa22d4db50fbcb2adb1a0cd72eab0ac490b3448ea39e03783":
    fail("/app/notes/2024/vertex team/retro notes.md was modified")
if hashlib.sha256(read("/app/notes/todo.md").encode()).hexdigest() != "ca2fd4ebad527c398382725d5766b04530248b893449d6ab75048cd5ae762bf7":
    fail("/app/notes/todo.md was modified")
if hashlib.sha256(read("/app/notes/2024/vertex team/On call log.md").encode()).hexdigest() != "9060896fa6f4e9ceb77eb4996a6d4a3c586cf4fc3d52408472a0ef0c0c9c06ab":
    fail("/app/notes/2024/vertex team/On call log.md was modified")
if hashlib.sha256(read("/app/notes/march plan.md").encode()).hexdigest() != "8c156cfe22705794417a395cc44ce3b73dbf32074df54f31ca6cd018f4015c97":
    fail("/app/notes/march plan.md was modified")
if hashlib.sha256(read("/app/bin/bundle").encode()).hexdigest() != "46d5c1dd337529c0b361e1430b713c362ff215110206de0017201fa8425c4116":
    fail("/app/bin/bundle was modified")
print("PASS")
