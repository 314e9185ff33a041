FILES = [('/app/cache/bravo/cedar copy.part', 2729), ('/app/cache/bravo/nova.part', 1470), ('/app/cache/maple old/harbor.part', 1695), ('/app/cache/maple/ember.part', 2502), ('/app/cache/maple/juniper.part', 500), ('/app/cache/maple/kepler.part', 1342), ('/app/cache/umber/delta/.sierra.part', 300), ('/app/cache/umber/delta/quartz.txt', 700), ('/app/cache/umber/delta/tango.part.keep', 90), ('/app/cache/vertex.part/data.txt', 1234)]
import os, sys

def content(name, size):
    unit = f"{name} " * 3 + "\n"
    return (unit * (size // len(unit) + 1))[:size]

for path, size in FILES:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content(os.path.basename(path), size))
