import configparser
import os

cfg = configparser.ConfigParser(interpolation=None)
with open("/app/etc/pixel.ini") as f:
    cfg.read_file(f)
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/pixel.env", "w") as f:
    for section in ['cache', 'database', 'auth', 'logging']:
        for key, value in sorted(cfg[section].items()):
            f.write(f"{section.upper()}_{key.upper()}={value}\n")
print("wrote /app/out/pixel.env")
