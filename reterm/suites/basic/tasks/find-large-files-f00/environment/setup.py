FILES = [('/app/uploads/alpha/.quartz.tmp', 300), ('/app/uploads/alpha/juniper.tmp.keep', 90), ('/app/uploads/alpha/lumen.tmp', 3929), ('/app/uploads/alpha/raven.tmp', 3418), ('/app/uploads/harbor.tmp/data.txt', 1234), ('/app/uploads/maple/nova/pixel.tmp', 3616), ('/app/uploads/orbit old/bravo copy.tmp', 78), ('/app/uploads/orbit old/fjord.tmp', 500), ('/app/uploads/orbit/umber.txt', 700), ('/app/uploads/orbit/vertex.tmp', 594)]
import os, sys

def content(name, size):
    unit = f"{name} " * 3 + "\n"
    return (unit * (size // len(unit) + 1))[:size]

for path, size in FILES:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content(os.path.basename(path), size))
