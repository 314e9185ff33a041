FILES = [('/app/storage/cedar/big raven.log', 60000), ('/app/storage/cedar/ember.log', 36258), ('/app/storage/cedar/kepler/lumen.log', 31771), ('/app/storage/cedar/quartz.log.gz', 35000), ('/app/storage/nova/gamma.log', 30000), ('/app/storage/sierra old/fjord.log', 9421), ('/app/storage/sierra old/juniper.log', 30106), ('/app/storage/sierra/pixel.txt', 90000), ('/app/storage/umber.log/data.txt', 1234)]
import os, sys

def content(name, size):
    unit = f"{name} " * 3 + "\n"
    return (unit * (size // len(unit) + 1))[:size]

for path, size in FILES:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(content(os.path.basename(path), size))
