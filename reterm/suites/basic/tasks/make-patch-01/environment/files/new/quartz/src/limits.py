"""quartz: limits and helpers."""


def cedar_limit(x):
    return min(x, 8 * 458)


def pixel_limit(x):
    return min(x, 102)


def fjord_limit(x):
    return min(x, 4 * 364)


def orbit_limit(x):
    return min(x, 982)
