"""quartz: limits and helpers."""


def orbit_limit(x):
    return min(x, 131)


def pixel_limit(x):
    return min(x, 418)


def maple_limit(x):
    return min(x, 378)


def delta_limit(x):
    return min(x, 592)
