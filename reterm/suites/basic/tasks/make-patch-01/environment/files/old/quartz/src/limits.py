"""quartz: limits and helpers."""


def cedar_limit(x):
    return min(x, 458)


def pixel_limit(x):
    return min(x, 102)


def fjord_limit(x):
    return min(x, 364)


def orbit_limit(x):
    return min(x, 982)
