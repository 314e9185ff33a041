from stats import median

print(median([3, 1, 2]))
