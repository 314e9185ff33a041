#!/bin/bash
set -e
python3 - <<'EOF'
import glob
for p in glob.glob("/app/conf/*.conf"):
    with open(p) as f:
        text = f.read()
    with open(p, "w") as f:
        f.write(text.replace('https://search.orbit.lan/v1/export?format=csv', 'https://search.orbit.lan/v2/export?format=json&limit=500'))
EOF
