FILES = [('/app/cache/bravo old/sierra.bin', 48029), ('/app/cache/bravo/pixel.txt', 120000), ('/app/cache/cedar/gamma/big raven.bin', 80000), ('/app/cache/cedar/gamma/indigo.bin', 40000), ('/app/cache/cedar/gamma/quartz.bin', 13856), ('/app/cache/tango/alpha.bin', 41698), ('/app/cache/tango/delta.bin', 40075), ('/app/cache/tango/orbit.bin.gz', 45000), ('/app/cache/umber.bin/data.txt', 1234)]
import os, sys

def content(name, size):
    unit = f"{name} " * 3 + "\n"
    return (unit * (size // len(unit) + 1))[:size]

for path, size in FILES:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content(os.path.basename(path), size))
