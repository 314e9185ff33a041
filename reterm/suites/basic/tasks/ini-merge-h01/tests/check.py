import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

import configparser
cfg = configparser.ConfigParser(interpolation=None)
try:
    cfg.read_string(read("/app/etc/harbor.ini"))
except configparser.Error as e:
    fail(f"harbor.ini still does not parse: {e}")
got = {s: dict(cfg[s]) for s in cfg.sections()}
settings = {'cache': {'backend': 'disk', 'ttl': '1729', 'size': '24'}, 'logging': {'level': 'info', 'file': '/app/logs/service.log', 'rotate': 'no'}, 'auth': {'provider': 'local', 'timeout': '20', 'realm': 'fjord'}}
if got != settings:
    fail(f"the settings are {got}, expected {settings}")
if read("/app/out/harbor.env") != 'CACHE_BACKEND=disk\nCACHE_SIZE=24\nCACHE_TTL=1729\nLOGGING_FILE=/app/logs/service.log\nLOGGING_LEVEL=info\nLOGGING_ROTATE=no\nAUTH_PROVIDER=local\nAUTH_REALM=fjord\nAUTH_TIMEOUT=20\n':
    fail("out/harbor.env is wrong")
if hashlib.sha256(read("/app/render.py").encode()).hexdigest() != "18988598137344566b4d255cae5123be73f71eea48a3bb6be6ec80c20f768f27":
    fail("render.py was modified")
print("PASS")
