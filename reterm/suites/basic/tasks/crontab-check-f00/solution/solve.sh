#!/bin/bash
set -e
cat > /app/etc/crontab <<'EOF'
# backup and friends: maintenance schedule
SHELL=/bin/bash
MAILTO=root

# backup.sh: at midnight every day
0 0 * * * /app/bin/backup.sh --quiet

# rotate-logs.sh: at 05:00 on weekdays (Monday to Friday)
0 5 * * 1-5 /app/bin/rotate-logs.sh

# cleanup.sh: at 19:05 every Sunday
5 19 * * 0 /app/bin/cleanup.sh --quiet

# sync.sh: every 6 hours on the hour (00:00, 06:00, 12:00, 18:00)
0 */6 * * * /app/bin/sync.sh

# vacuum.sh: every day at 03:15
15 3 * * * /app/bin/vacuum.sh --quiet
EOF
/app/bin/validate-crontab /app/etc/crontab
