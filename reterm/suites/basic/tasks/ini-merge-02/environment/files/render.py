import configparser
import os

cfg = configparser.ConfigParser(interpolation=None)
with open("/app/etc/orbit.ini") as f:
    cfg.read_file(f)
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/orbit.env", "w") as f:
    for section in ['logging', 'cache', 'auth']:
        for key, value in sorted(cfg[section].items()):
            f.write(f"{section.upper()}_{key.upper()}={value}\n")
print("wrote /app/out/orbit.env")
