import json
import os
import sys

from miniyaml import ConfigError, load


def flat(prefix, mapping):
    for k, v in mapping.items():
        if isinstance(v, dict):
            yield from flat(prefix + k + ".", v)
        else:
            yield prefix + k, v


try:
    cfg = load("/app/config.yaml")
except ConfigError as e:
    sys.exit(f"error: /app/config.yaml: {e}")
os.makedirs("/app/out", exist_ok=True)
with open("/app/out/settings.txt", "w") as f:
    for key, value in sorted(flat("", cfg)):
        f.write(f"{key}={json.dumps(value)}\n")
print("settings written")
