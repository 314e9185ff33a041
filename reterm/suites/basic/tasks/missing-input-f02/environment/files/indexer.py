import configparser
import os

cfg = configparser.ConfigParser()
with open("/app/etc/indexer.ini") as f:
    cfg.read_file(f)
source = cfg["index"]["source"]
min_length = cfg["index"].getint("min_length")
words = set()
for name in sorted(os.listdir(source)):
    with open(os.path.join(source, name)) as f:
        words.update(w for w in f.read().split() if len(w) >= min_length)
with open("/app/index.txt", "w") as f:
    f.write("\n".join(sorted(words)) + "\n")
