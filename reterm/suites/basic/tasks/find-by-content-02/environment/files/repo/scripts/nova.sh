# scripts/nova.sh
value = old_harbor_key
value = OLD_HARBOR_KEYS
