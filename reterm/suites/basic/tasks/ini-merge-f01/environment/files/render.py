import configparser
import os

cfg = configparser.ConfigParser(interpolation=None)
with open("/app/etc/tango.ini") as f:
    cfg.read_file(f)
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/tango.env", "w") as f:
    for section in ['logging', 'server', 'auth']:
        for key, value in sorted(cfg[section].items()):
            f.write(f"{section.upper()}_{key.upper()}={value}\n")
print("wrote /app/out/tango.env")
