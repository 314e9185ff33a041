import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/export/notes.bundle") != '### Q3 review.md\n# Q3 review\ncedar 88\n### Team Sync.md\n# Team Sync\nmaple 9\n### budget draft 2.md\n# budget draft 2\nsierra 75\n### ideas.md\n# ideas\ncedar 87\n### march plan.md\n# march plan\ndelta 97\n### todo.md\n# todo\nalpha 42\n':
    fail("/app/export/notes.bundle does not hold exactly the .md notes")
if hashlib.sha256(read("/app/notes/2024/lumen team/Team Sync.md").encode()).hexdigest() != "e77a7efe9a725b4842089d93ac3b8cdd7bd9d4acac9d8b022498229d977a7c69":
    fail("/app/notes/2024/lumen team/Team Sync.md was modified")
if hashlib.sha256(read("/app/notes/march plan.md").encode()).hexdigest() != "c89b17b77d5a6fab9664b380c412dfc277a470db2119111dfb5d713634aca203":
    fail("/app/notes/march plan.md was modified")
if hashlib.sha256(read("/app/notes/orbit/todo.md").encode()).hexdigest() != "275481e18fc962a49b3d841c93d2b4ac530e9669d728e98fb5b0e59c6742dfb8":
    fail("/app/notes/orbit/todo.md was modified")
if hashlib.sha256(read("/app/notes/2024/lumen team/ideas.md").encode()).hexdigest() != "4260bfea63310c5e055b1100abd384e3149717a161d0596a61dab4865ef4a23d":
    fail("/app/notes/2024/lumen team/ideas.md was modified")
if hashlib.sha256(read("/app/notes/Q3 review.md").encode()).hexdigest() != "5147a0e66b04cc08bc251c0b5a1fae8bf0ce06d021f9369c539ca5474adcb338":
    fail("/app/notes/Q3 review.md was modified")
if hashlib.sha256(read("/app/notes/orbit/budget draft 2.md").encode()).hexdigest() != "05d4b3a89403d2ac746037a4c48c3429909814f08d68e2453fd5d66a54b37b82":
    fail("/app/notes/orbit/budget draft 2.md was modified")
if hashlib.sha256(read("/app/bin/bundle").encode()).hexdigest() != "46d5c1dd337529c0b361e1430b713c362ff215110206de0017201fa8425c4116":
    fail("/app/bin/bundle was modified")
print("PASS")
