# scripts/bravo.sh
value = LEGACY-INDIGO-URL
