#!/bin/bash
set -e
cat > /app/etc/crontab <<'EOF'
# backup and friends: maintenance schedule
SHELL=/bin/bash
MAILTO=ops

# backup.sh: every 6 hours on the hour (00:00, 06:00, 12:00, 18:00)
0 */6 * * * /app/bin/backup.sh

# cleanup.sh: at the start of every hour
0 * * * * /app/bin/cleanup.sh --quiet

# digest.sh: every day at 22:05
5 22 * * * /app/bin/digest.sh

# reindex.sh: at midnight every day
0 0 * * * /app/bin/reindex.sh >> /app/log/reindex.log 2>&1

# report.sh: at 19:45 on the first day of every month
45 19 1 * * /app/bin/report.sh >> /app/log/report.log 2>&1
EOF
/app/bin/validate-crontab /app/etc/crontab
