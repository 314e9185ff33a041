import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/export/notes.bundle") != '### Q3 review.md\n# Q3 review\nindigo 31\n### Team Sync.md\n# Team Sync\njuniper 30\n### budget draft 2.md\n# budget draft 2\nsierra 82\n### ideas.md\n# ideas\nindigo 52\n### march plan.md\n# march plan\number 37\n### todo.md\n# todo\nquartz 54\n':
    fail("/app/export/notes.bundle does not hold exactly the .md notes")
if hashlib.sha256(read("/app/notes/budget draft 2.md").encode()).hexdigest() != "7a139c150cf12bf4b2d60bf989b225f727de188c10677175237fe7339cec8942":
    fail("/app/notes/budget draft 2.md was modified")
if hashlib.sha256(read("/app/notes/sierra/march plan.md").encode()).hexdigest() != "8f9f9edc7c041a2a4c4359eb2386abe121875931ff3c07395bf9656b8f355d4c":
    fail("/app/notes/sierra/march plan.md was modified")
if hashlib.sha256(read("/app/notes/2024/maple team/ideas.md").encode()).hexdigest() != "debb8cfd466165e4d49357d139fe45ddb8f012550a90a123a0d010e405ea3fe8":
    fail("/app/notes/2024/maple team/ideas.md was modified")
if hashlib.sha256(read("/app/notes/2024/maple team/Q3 review.md").encode()).hexdigest() != "4d37cc2ba879fe3441bb1e56d123138353d8b38da6e929115ec222f635e61199":
    fail("/app/notes/2024/maple team/Q3 review.md was modified")
if hashlib.sha256(read("/app/notes/todo.md").encode()).hexdigest() != "c44d965a18f5423f4e4cedaf607ec1d1c336348e97d505b53f245ff1b6f2bf1a":
    fail("/app/notes/todo.md was modified")
if hashlib.sha256(read("/app/notes/sierra/Team Sync.md").encode()).hexdigest() != "8d81b1dd2c8f2948c9baada8d7d1b7e536a13c5c6c2ea658f431bfdae283e7ae":
    fail("/app/notes/sierra/Team Sync.md was modified")
if hashlib.sha256(read("/app/bin/bundle").encode()).hexdigest() != "46d5c1dd337529c0b361e1430b713c362ff215110206de0017201fa8425c4116":
    fail("/app/bin/bundle was modified")
print("PASS")
