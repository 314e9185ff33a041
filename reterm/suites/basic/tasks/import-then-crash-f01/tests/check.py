import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

try:
    got = json.loads(read("/app/report.json"))
except ValueError as e:
    fail(f"report.json is not JSON: {e}")
if got != {'pixel': 1098, 'maple': 810, 'raven': 2898, 'nova': 1233}:
    fail(f"report.json is {got}, expected {'pixel': 1098, 'maple': 810, 'raven': 2898, 'nova': 1233}")
if hashlib.sha256(read("/app/data/readings.csv").encode()).hexdigest() != "5602313e076f1388e518d7a1eda7b981f375c6054b5d96fdce14628ceb226d6d":
    fail("/app/data/readings.csv was modified")
if hashlib.sha256(read("/app/lib/records9.py").encode()).hexdigest() != "dd268a4a5d6a35d954ae72256f6d74f4c8816e97d8b726e07ed6305424286037":
    fail("/app/lib/records9.py was modified")
print("PASS")
