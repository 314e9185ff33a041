# scripts/cedar.sh
value = LEGACY-INDIGO-HOST
