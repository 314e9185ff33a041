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
    cfg.read_string(read("/app/etc/alpha.ini"))
except configparser.Error as e:
    fail(f"alpha.ini still does not parse: {e}")
got = {s: dict(cfg[s]) for s in cfg.sections()}
settings = {'cache': {'backend': 'redis', 'ttl': '3600', 'size': '256'}, 'server': {'host': '127.0.0.1', 'port': '7745', 'workers': '5'}, 'logging': {'level': 'debug', 'file': '/app/logs/service.log', 'rotate': 'no'}}
if got != settings:
    fail(f"the settings are {got}, expected {settings}")
if read("/app/out/alpha.env") != 'CACHE_BACKEND=redis\nCACHE_SIZE=256\nCACHE_TTL=3600\nSERVER_HOST=127.0.0.1\nSERVER_PORT=7745\nSERVER_WORKERS=5\nLOGGING_FILE=/app/logs/service.log\nLOGGING_LEVEL=debug\nLOGGING_ROTATE=no\n':
    fail("out/alpha.env is wrong")
if hashlib.sha256(read("/app/render.py").encode()).hexdigest() != "d5fcb7c10267e864aa078d24d573f265b3a467696f245c9a52899422e3178408":
    fail("render.py was modified")
print("PASS")
