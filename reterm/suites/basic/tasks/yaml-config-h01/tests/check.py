import hashlib, json, os, sys

def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)

def read(path):
    if not os.path.isfile(path):
        fail(f"{path} does not exist")
    with open(path) as f:
        return f.read()

ns = {}
exec('"""A strict reader for the small YAML subset this app\'s settings use: `key: value` lines, mappings nested by\ntwo spaces per level, `#` comments. Every error names its line."""\n\n\nclass ConfigError(Exception):\n    pass\n\n\ndef scalar(text):\n    if text in ("true", "false"):\n        return text == "true"\n    if text.lstrip("-").isdigit():\n        return int(text)\n    if len(text) >= 2 and text[0] == text[-1] == \'"\':\n        return text[1:-1]\n    return text\n\n\ndef load(path):\n    root, first = {}, {}\n    stack = [(0, root)]  # (indentation of its keys, mapping)\n    opened = None  # a `key:` whose indented block must follow\n    with open(path) as f:\n        lines = f.read().splitlines()\n    for n, line in enumerate(lines, 1):\n        body = line.strip()\n        if not body or body.startswith("#"):\n            continue\n        lead = line[:len(line) - len(line.lstrip(" \\t"))]\n        if "\\t" in lead:\n            raise ConfigError(f"line {n}: tab character in indentation")\n        indent = len(lead)\n        if indent % 2:\n            raise ConfigError(f"line {n}: indentation of {indent} spaces is not a multiple of 2")\n        if opened and indent != stack[-1][0]:\n            raise ConfigError(f"line {n}: expected the keys of \'{opened}\' indented by {stack[-1][0]} spaces")\n        if indent > stack[-1][0]:\n            raise ConfigError(f"line {n}: unexpected indentation")\n        while indent < stack[-1][0]:\n            stack.pop()\n        opened = None\n        key, colon, value = body.partition(":")\n        if not colon or not key or " " in key:\n            raise ConfigError(f"line {n}: expected \'key: value\', found {body!r}")\n        if value and not value.startswith(" "):\n            raise ConfigError(f"line {n}: missing space after \':\' in {body!r}")\n        mapping = stack[-1][1]\n        if key in mapping:\n            raise ConfigError(f"line {n}: duplicate key \'{key}\' (first set on line {first[id(mapping), key]})")\n        first[id(mapping), key] = n\n        if value.strip():\n            mapping[key] = scalar(value.strip())\n        else:\n            mapping[key] = {}\n            stack.append((indent + 2, mapping[key]))\n            opened = key\n    if opened:\n        raise ConfigError(f"line {len(lines)}: \'{opened}\' has no keys")\n    return root\n', ns)
try:
    cfg = ns["load"]("/app/config.yaml")
except (ns["ConfigError"], OSError) as e:
    fail(f"config.yaml does not load: {e}")
if cfg != {'name': 'pixel', 'cache': {'backend': 'memory', 'ttl': 1010, 'enabled': True}, 'logging': {'level': 'debug', 'file': '/app/logs/app.log', 'limits': {'max_items': 305, 'burst': 11}}, 'database': {'name': 'harbor_db', 'user': 'orbit', 'timeout': 36}, 'storage': {'path': '/app/umber', 'max_mb': 3341, 'compress': False}}:
    fail(f"settings changed: {cfg}")
if read("/app/out/settings.txt") != 'cache.backend="memory"\ncache.enabled=true\ncache.ttl=1010\ndatabase.name="harbor_db"\ndatabase.timeout=36\ndatabase.user="orbit"\nlogging.file="/app/logs/app.log"\nlogging.level="debug"\nlogging.limits.burst=11\nlogging.limits.max_items=305\nname="pixel"\nstorage.compress=false\nstorage.max_mb=3341\nstorage.path="/app/umber"\n':
    fail("out/settings.txt is wrong")
for path, h in [("/app/app.py", "7a9f1a0e0e754857b272b05f6c461fac230c29a525e453e3bdce1d71f25b3db3"), ("/app/miniyaml.py", "998c975c87b7844fceda635548300f37ba24a172e51e14d2ac8723f3b7bffb5d")]:
    if hashlib.sha256(read(path).encode()).hexdigest() != h:
        fail(f"{path} was modified")
print("PASS")
