#!/bin/bash
set -e
cat > /app/config/schedule.cron <<'EOF'
# report and friends: maintenance schedule
SHELL=/bin/bash
MAILTO=root

# report.sh: every 15 minutes
*/15 * * * * /app/bin/report.sh

# reindex.sh: every day at 19:50
50 19 * * * /app/bin/reindex.sh >> /app/log/reindex.log 2>&1

# backup.sh: at midnight every day
0 0 * * * /app/bin/backup.sh --quiet

# vacuum.sh: at the start of every hour
0 * * * * /app/bin/vacuum.sh --quiet

# digest.sh: at 21:05 every Sunday
5 21 * * 0 /app/bin/digest.sh >> /app/log/digest.log 2>&1
EOF
/app/bin/validate-crontab /app/config/schedule.cron
