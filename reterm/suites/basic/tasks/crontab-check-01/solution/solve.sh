#!/bin/bash
set -e
cat > /app/etc/crontab <<'EOF'
# sync and friends: maintenance schedule
SHELL=/bin/bash
MAILTO=root

# sync.sh: at 03:00 on weekdays (Monday to Friday)
0 3 * * 1-5 /app/bin/sync.sh

# report.sh: at midnight every day
0 0 * * * /app/bin/report.sh --quiet

# rotate-logs.sh: every 6 hours on the hour (00:00, 06:00, 12:00, 18:00)
0 */6 * * * /app/bin/rotate-logs.sh

# reindex.sh: every 15 minutes
*/15 * * * * /app/bin/reindex.sh --quiet

# digest.sh: at 12:10 every Sunday
10 12 * * 0 /app/bin/digest.sh
EOF
/app/bin/validate-crontab /app/etc/crontab
