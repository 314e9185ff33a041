import json

with open("/app/config.json") as f:
    cfg = json.load(f)
with open("/app/result.txt", "w") as f:
    f.write(f"{cfg['name']}:{cfg['port']}:{cfg['workers']}\n")
