from stats import mean

print(mean([2, 2, 2]))
