# scripts/lumen.sh
value = deprecated_indigo_url
