# scripts/kepler.sh
value = LEGACY-EMBER-KEY
