#!/bin/bash
set -e
cat > /app/config/schedule.cron <<'EOF'
# cleanup and friends: maintenance schedule
SHELL=/bin/bash
MAILTO=ops

# cleanup.sh: at the start of every hour
0 * * * * /app/bin/cleanup.sh >> /app/log/cleanup.log 2>&1

# backup.sh: every 6 hours on the hour (00:00, 06:00, 12:00, 18:00)
0 */6 * * * /app/bin/backup.sh --quiet

# digest.sh: at 16:00 on weekdays (Monday to Friday)
0 16 * * 1-5 /app/bin/digest.sh

# vacuum.sh: at 18:15 every Sunday
15 18 * * 0 /app/bin/vacuum.sh >> /app/log/vacuum.log 2>&1

# rotate-logs.sh: at 01:50 on the first day of every month
50 1 1 * * /app/bin/rotate-logs.sh >> /app/log/rotate-logs.log 2>&1
EOF
/app/bin/validate-crontab /app/config/schedule.cron
