import configparser
import os

cfg = configparser.ConfigParser(interpolation=None)
with open("/app/etc/sierra.ini") as f:
    cfg.read_file(f)
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/sierra.env", "w") as f:
    for section in ['server', 'cache', 'logging', 'database']:
        for key, value in sorted(cfg[section].items()):
            f.write(f"{section.upper()}_{key.upper()}={value}\n")
print("wrote /app/out/sierra.env")
