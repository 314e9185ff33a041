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
    cfg.read_string(read("/app/etc/orbit.ini"))
except configparser.Error as e:
    fail(f"orbit.ini still does not parse: {e}")
got = {s: dict(cfg[s]) for s in cfg.sections()}
settings = {'logging': {'level': 'info', 'file': '/app/logs/service.log', 'rotate': 'no'}, 'cache': {'backend': 'disk', 'ttl': '668', 'size': '296'}, 'auth': {'provider': 'oauth', 'timeout': '116', 'realm': 'gamma'}}
if got != settings:
    fail(f"the settings are {got}, expected {settings}")
if read("/app/out/orbit.env") != 'LOGGING_FILE=/app/logs/service.log\nLOGGING_LEVEL=info\nLOGGING_ROTATE=no\nCACHE_BACKEND=disk\nCACHE_SIZE=296\nCACHE_TTL=668\nAUTH_PROVIDER=oauth\nAUTH_REALM=gamma\nAUTH_TIMEOUT=116\n':
    fail("out/orbit.env is wrong")
if hashlib.sha256(read("/app/render.py").encode()).hexdigest() != "906f170c683ca8918dbfb5024308e948d852bb3964d498040ac2763f66b4fc7f":
    fail("render.py was modified")
print("PASS")
