#!/bin/bash
set -e
cat > /app/cron/alpha.cron <<'EOF'
# sync and friends: maintenance schedule
SHELL=/bin/bash
MAILTO=

# sync.sh: at 06:15 on the first day of every month
15 6 1 * * /app/bin/sync.sh --quiet

# cleanup.sh: every 15 minutes
*/15 * * * * /app/bin/cleanup.sh >> /app/log/cleanup.log 2>&1

# vacuum.sh: at the start of every hour
0 * * * * /app/bin/vacuum.sh --quiet

# backup.sh: every 6 hours on the hour (00:00, 06:00, 12:00, 18:00)
0 */6 * * * /app/bin/backup.sh --quiet

# rotate-logs.sh: at 21:00 on weekdays (Monday to Friday)
0 21 * * 1-5 /app/bin/rotate-logs.sh
EOF
/app/bin/validate-crontab /app/cron/alpha.cron
