FILES = [('/app/uploads/cedar/indigo copy.part', 1452), ('/app/uploads/cedar/orbit.part', 1882), ('/app/uploads/cedar/sierra.part', 500), ('/app/uploads/cedar/umber.part', 2439), ('/app/uploads/delta old/.gamma.part', 300), ('/app/uploads/delta old/vertex.part.keep', 90), ('/app/uploads/delta/tango.part', 2030), ('/app/uploads/pixel/kepler/maple.txt', 700), ('/app/uploads/pixel/kepler/nova.part', 1520), ('/app/uploads/quartz.part/data.txt', 1234)]
import os, sys

def content(name, size):
    unit = f"{name} " * 3 + "\n"
    return (unit * (size // len(unit) + 1))[:size]

for path, size in FILES:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content(os.path.basename(path), size))
