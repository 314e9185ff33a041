#!/bin/bash
set -e
cd /app/harbor
patch -p1 -i /app/patches/backport-63.patch || echo "one hunk was rejected: it is applied by hand below"
rm -f conf/harbor.conf.rej conf/harbor.conf.orig
python3 - <<'EOF'
p = "/app/harbor/conf/harbor.conf"
lines = open(p).read().split("\n")
lines[lines.index('interval = 2811')] = 'interval = 7301'
open(p, "w").write("\n".join(lines))
EOF
