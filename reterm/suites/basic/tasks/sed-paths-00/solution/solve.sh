#!/bin/bash
set -e
python3 - <<'EOF'
import glob
for p in glob.glob("/app/conf/*.conf"):
    with open(p) as f:
        text = f.read()
    with open(p, "w") as f:
        f.write(text.replace('http://[fd00::de]:4588', 'http://[fd00::92]:4588'))
EOF
