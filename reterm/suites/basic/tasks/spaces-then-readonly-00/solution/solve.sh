#!/bin/bash
set -e
chmod u+w /app/export
[ ! -e /app/export/notes.bundle ] || chmod u+w /app/export/notes.bundle
find /app/notes -type f -name '*.md' -print0 | xargs -0 /app/bin/bundle /app/export/notes.bundle
