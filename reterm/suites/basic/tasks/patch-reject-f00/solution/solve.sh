#!/bin/bash
set -e
cd /app/fjord
patch -p1 -i /app/patches/backport-68.patch || echo "one hunk was rejected: it is applied by hand below"
rm -f src/fjord/settings.py.rej src/fjord/settings.py.orig
python3 - <<'EOF'
p = "/app/fjord/src/fjord/settings.py"
lines = open(p).read().split("\n")
lines[lines.index('LOGGING_GRACE = 4116')] = 'LOGGING_GRACE = 4212'
open(p, "w").write("\n".join(lines))
EOF
