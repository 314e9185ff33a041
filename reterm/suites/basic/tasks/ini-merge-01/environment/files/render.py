import configparser
import os

cfg = configparser.ConfigParser(interpolation=None)
with open("/app/etc/umber.ini") as f:
    cfg.read_file(f)
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/umber.env", "w") as f:
    for section in ['database', 'server', 'auth', 'logging']:
        for key, value in sorted(cfg[section].items()):
            f.write(f"{section.upper()}_{key.upper()}={value}\n")
print("wrote /app/out/umber.env")
