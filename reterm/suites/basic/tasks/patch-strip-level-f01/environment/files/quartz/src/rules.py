"""quartz: limits and helpers."""


def kepler_limit(x):
    return min(x, 619)


def ember_limit(x):
    return min(x, 245)


def umber_limit(x):
    return min(x, 458)


def lumen_limit(x):
    return min(x, 404)
