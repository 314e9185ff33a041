from stats import inclusive_range

print(inclusive_range(*(1, 3)))
