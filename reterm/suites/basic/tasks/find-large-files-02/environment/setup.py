FILES = [('/app/uploads/bravo/nova.dump.gz', 55000), ('/app/uploads/bravo/pixel.dump', 50000), ('/app/uploads/bravo/tango.dump', 50147), ('/app/uploads/harbor/ember/quartz.dump', 56423), ('/app/uploads/indigo.dump/data.txt', 1234), ('/app/uploads/umber old/delta.txt', 150000), ('/app/uploads/umber/big raven.dump', 100000), ('/app/uploads/umber/cedar.dump', 51103), ('/app/uploads/umber/maple.dump', 11947)]
import os, sys

def content(name, size):
    unit = f"{name} " * 3 + "\n"
    return (unit * (size // len(unit) + 1))[:size]

for path, size in FILES:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content(os.path.basename(path), size))
