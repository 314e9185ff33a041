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
    cfg.read_string(read("/app/etc/pixel.ini"))
except configparser.Error as e:
    fail(f"pixel.ini still does not parse: {e}")
got = {s: dict(cfg[s]) for s in cfg.sections()}
settings = {'cache': {'backend': 'redis', 'ttl': '519', 'size': '132'}, 'database': {'host': 'harbor.db.lan', 'port': '4933', 'name': 'lumen', 'timeout': '18'}, 'auth': {'provider': 'oauth', 'timeout': '49', 'realm': 'bravo'}, 'logging': {'level': 'debug', 'file': '/app/logs/service.log', 'rotate': 'yes'}}
if got != settings:
    fail(f"the settings are {got}, expected {settings}")
if read("/app/out/pixel.env") != 'CACHE_BACKEND=redis\nCACHE_SIZE=132\nCACHE_TTL=519\nDATABASE_HOST=harbor.db.lan\nDATABASE_NAME=lumen\nDATABASE_PORT=4933\nDATABASE_TIMEOUT=18\nAUTH_PROVIDER=oauth\nAUTH_REALM=bravo\nAUTH_TIMEOUT=49\nLOGGING_FILE=/app/logs/service.log\nLOGGING_LEVEL=debug\nLOGGING_ROTATE=yes\n':
    fail("out/pixel.env is wrong")
if hashlib.sha256(read("/app/render.py").encode()).hexdigest() != "5aa49c871e76f05385dddf30bd38c6d0b9ebb1d6361b32851fe8cd14d2263a03":
    fail("render.py was modified")
print("PASS")
