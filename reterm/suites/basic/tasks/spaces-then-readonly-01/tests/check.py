import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/export/notes.bundle") != '### Q3 review.md\n# Q3 review\nlumen 49\n### march plan.md\n# march plan\ndelta 8\n### retro notes.md\n# retro notes\ngamma 17\n### todo.md\n# todo\ngamma 74\n':
    fail("/app/export/notes.bundle does not hold exactly the .md notes")
if hashlib.sha256(read("/app/notes/2024/juniper team/retro notes.md").encode()).hexdigest() != "ecdf5f8b81604f41affdcfd280073e1c9db0352ab724198c1ce9fc29a5ab0b1f":
    fail("/app/notes/2024/juniper team/retro notes.md was modified")
if hashlib.sha256(read("/app/notes/march plan.md").encode()).hexdigest() != "47dd89939b903b06145fc818485387eb622ef4248ff283cc3baff68f8f4f90ab":
    fail("/app/notes/march plan.md was modified")
if hashlib.sha256(read("/app/notes/2024/juniper team/Q3 review.md").encode()).hexdigest() != "9250685b7c479868d07e8b224aeae0f10f2a7cdd26d8e95aae5100cdeae4c4b9":
    fail("/app/notes/2024/juniper team/Q3 review.md was modified")
if hashlib.sha256(read("/app/notes/todo.md").encode()).hexdigest() != "a6792986691ec9c76faa7a410f68ddfd926f27e92578ffc723cffdd98421893e":
    fail("/app/notes/todo.md was modified")
if hashlib.sha256(read("/app/bin/bundle").encode()).hexdigest() != "46d5c1dd337529c0b361e1430b713c362ff215110206de0017201fa8425c4116":
    fail("/app/bin/bundle was modified")
print("PASS")
