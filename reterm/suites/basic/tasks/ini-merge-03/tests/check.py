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
settings = {'cache': {'backend': 'redis', 'ttl': '432', 'size': '305'}, 'logging': {'level': 'debug', 'file': '/app/logs/service.log', 'rotate': 'yes'}, 'server': {'host': '127.0.0.1', 'port': '9082', 'workers': '13'}, 'auth': {'provider': 'oauth', 'timeout': '53', 'realm': 'ember'}}
if got != settings:
    fail(f"the settings are {got}, expected {settings}")
if read("/app/out/pixel.env") != 'CACHE_BACKEND=redis\nCACHE_SIZE=305\nCACHE_TTL=432\nLOGGING_FILE=/app/logs/service.log\nLOGGING_LEVEL=debug\nLOGGING_ROTATE=yes\nSERVER_HOST=127.0.0.1\nSERVER_PORT=9082\nSERVER_WORKERS=13\nAUTH_PROVIDER=oauth\nAUTH_REALM=ember\nAUTH_TIMEOUT=53\n':
    fail("out/pixel.env is wrong")
if hashlib.sha256(read("/app/render.py").encode()).hexdigest() != "f9c1168091c2e2756a73c9891c438693129685ba4941f2764ed0bcfb3ef69bff":
    fail("render.py was modified")
print("PASS")
