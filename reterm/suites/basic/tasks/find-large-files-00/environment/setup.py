FILES = [('/app/cache/gamma.tmp/data.txt', 1234), ('/app/cache/indigo/delta.txt', 700), ('/app/cache/indigo/fjord.tmp', 447), ('/app/cache/indigo/lumen.tmp', 500), ('/app/cache/maple old/.vertex.tmp', 300), ('/app/cache/maple/cedar.tmp', 2462), ('/app/cache/maple/nova.tmp', 1931), ('/app/cache/maple/orbit copy.tmp', 268), ('/app/cache/quartz/ember/bravo.tmp.keep', 90), ('/app/cache/quartz/ember/kepler.tmp', 1661)]
import os, sys

def content(name, size):
    unit = f"{name} " * 3 + "\n"
    return (unit * (size // len(unit) + 1))[:size]

for path, size in FILES:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content(os.path.basename(path), size))
