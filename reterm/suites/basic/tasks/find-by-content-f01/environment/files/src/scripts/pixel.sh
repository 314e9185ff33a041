# scripts/pixel.sh
