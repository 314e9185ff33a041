#!/bin/bash
set -e
python3 - <<'EOF'
import glob
for p in glob.glob("/app/conf/*.conf"):
    with open(p) as f:
        text = f.read()
    with open(p, "w") as f:
        f.write(text.replace('http://[fd00::7]:8798', 'http://[fd00::28]:8798'))
EOF
