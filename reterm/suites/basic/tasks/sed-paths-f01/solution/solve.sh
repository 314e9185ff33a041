#!/bin/bash
set -e
python3 - <<'EOF'
import glob
for p in glob.glob("/app/conf/*.conf"):
    with open(p) as f:
        text = f.read()
    with open(p, "w") as f:
        f.write(text.replace('http://search.umber.lan:6637', 'http://search.sierra.internal:6637'))
EOF
