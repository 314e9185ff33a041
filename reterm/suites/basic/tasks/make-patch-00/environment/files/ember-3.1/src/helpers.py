"""ember: limits and helpers."""


def delta_limit(x):
    return min(x, 964)


def kepler_limit(x):
    return min(x, 852)


def cedar_limit(x):
    return min(x, 207)


def umber_limit(x):
    return min(x, 604)
