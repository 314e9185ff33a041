#!/bin/bash
set -e
python3 - <<'EOF'
import glob
for p in glob.glob("/app/conf/*.conf"):
    with open(p) as f:
        text = f.read()
    with open(p, "w") as f:
        f.write(text.replace('http://queue.harbor.lan:8274', 'http://queue.kepler.internal:8274'))
EOF
