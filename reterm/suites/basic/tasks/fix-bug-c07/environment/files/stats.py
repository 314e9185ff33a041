def inclusive_range(lo, hi):
    return list(range(lo, hi))
