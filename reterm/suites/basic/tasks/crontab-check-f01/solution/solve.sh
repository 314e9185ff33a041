#!/bin/bash
set -e
cat > /app/config/schedule.cron <<'EOF'
# rotate-logs and friends: maintenance schedule
SHELL=/bin/bash
MAILTO=root

# rotate-logs.sh: every 6 hours on the hour (00:00, 06:00, 12:00, 18:00)
0 */6 * * * /app/bin/rotate-logs.sh >> /app/log/rotate-logs.log 2>&1

# cleanup.sh: at 02:40 on the first day of every month
40 2 1 * * /app/bin/cleanup.sh >> /app/log/cleanup.log 2>&1

# sync.sh: every 15 minutes
*/15 * * * * /app/bin/sync.sh

# reindex.sh: at 12:00 on weekdays (Monday to Friday)
0 12 * * 1-5 /app/bin/reindex.sh >> /app/log/reindex.log 2>&1

# digest.sh: every day at 12:05
5 12 * * * /app/bin/digest.sh --quiet
EOF
/app/bin/validate-crontab /app/config/schedule.cron
