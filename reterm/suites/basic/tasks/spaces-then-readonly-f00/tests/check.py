import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/export/notes.bundle") != '### On call log.md\n# On call log\number 56\n### budget draft 2.md\n# budget draft 2\njuniper 65\n### retro notes.md\n# retro notes\ncedar 12\n### todo.md\n# todo\nnova 15\n':
    fail("/app/export/notes.bundle does not hold exactly the .md notes")
if hashlib.sha256(read("/app/notes/2024/cedar team/todo.md").encode()).hexdigest() != "84cf963118c291f8d61821cedda934ee24365efe6aa28b83eca3fac6e8bb28d0":
    fail("/app/notes/2024/cedar team/todo.md was modified")
if hashlib.sha256(read("/app/notes/On call log.md").encode()).hexdigest() != "71ed5d4aa57ed99cffbfc62299707f96e140f2089ecb8e928638e771c202834a":
    fail("/app/notes/On call log.md was modified")
if hashlib.sha256(read("/app/notes/retro notes.md").encode()).hexdigest() != "bc72cc3c9a0608153bf67b7f74c69f30416f059a3f5b8a38736f8582ad8d6d48":
    fail("/app/notes/retro notes.md was modified")
if hashlib.sha256(read("/app/notes/budget draft 2.md").encode()).hexdigest() != "5cb602ddb0ff4094469d16a9615cc82d9d94905c5b686379896355878a650621":
    fail("/app/notes/budget draft 2.md was modified")
if hashlib.sha256(read("/app/bin/bundle").encode()).hexdigest() != "46d5c1dd337529c0b361e1430b713c362ff215110206de0017201fa8425c4116":
    fail("/app/bin/bundle was modified")
print("PASS")
