# scripts/cedar.sh
