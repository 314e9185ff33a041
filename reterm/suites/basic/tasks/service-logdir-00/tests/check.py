import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

if read("/app/out/fjord-summary.txt") != 'alpha=1264\nindigo=428\npixel=801\n':
    fail("/app/out/fjord-summary.txt is missing or wrong")
if "INFO ready" not in read("/app/log/fjord.log"):
    fail("the service's log /app/log/fjord.log does not show a successful start")
if hashlib.sha256(read("/app/bin/fjord-svc").encode()).hexdigest() != "acbc695d0ed3a57916c241aa56e9fb841eb87b1969adc1208fe7a1f56af17839":
    fail("the service was modified")
print("PASS")
