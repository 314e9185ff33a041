FILES = [('/app/uploads/cedar.swp/data.txt', 1234), ('/app/uploads/harbor/umber.swp', 2812), ('/app/uploads/juniper old/pixel.swp', 500), ('/app/uploads/juniper old/quartz copy.swp', 1410), ('/app/uploads/juniper old/tango.swp', 3001), ('/app/uploads/juniper/vertex.swp', 1242), ('/app/uploads/orbit/.ember.swp', 300), ('/app/uploads/orbit/alpha.swp.keep', 90), ('/app/uploads/orbit/delta.swp', 2360), ('/app/uploads/orbit/fjord.txt', 700)]
import os, sys

def content(name, size):
    unit = f"{name} " * 3 + "\n"
    return (unit * (size // len(unit) + 1))[:size]

for path, size in FILES:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content(os.path.basename(path), size))
