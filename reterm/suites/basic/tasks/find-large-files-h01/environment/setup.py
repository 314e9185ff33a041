FILES = [('/app/cache/cedar/pixel.txt', 700), ('/app/cache/delta.swp/data.txt', 1234), ('/app/cache/kepler/indigo/harbor.swp', 186), ('/app/cache/kepler/indigo/sierra copy.swp', 3684), ('/app/cache/kepler/juniper.swp', 1085), ('/app/cache/lumen old/.bravo.swp', 300), ('/app/cache/lumen old/vertex.swp.keep', 90), ('/app/cache/lumen/gamma.swp', 1245), ('/app/cache/lumen/quartz.swp', 3085), ('/app/cache/lumen/tango.swp', 500)]
import os, sys

def content(name, size):
    unit = f"{name} " * 3 + "\n"
    return (unit * (size // len(unit) + 1))[:size]

for path, size in FILES:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content(os.path.basename(path), size))
