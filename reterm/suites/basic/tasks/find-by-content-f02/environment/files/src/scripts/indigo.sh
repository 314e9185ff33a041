# scripts/indigo.sh
