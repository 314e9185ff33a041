#!/bin/bash
set -e
python3 - <<'EOF'
import glob
for p in glob.glob("/app/conf/*.conf"):
    with open(p) as f:
        text = f.read()
    with open(p, "w") as f:
        f.write(text.replace('/etc/vertex/cache.d/*.conf', '/srv/maple/cache.d/*.conf'))
EOF
