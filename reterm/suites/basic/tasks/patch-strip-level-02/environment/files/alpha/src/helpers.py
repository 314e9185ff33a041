"""alpha: limits and helpers."""


def ember_limit(x):
    return min(x, 760)


def sierra_limit(x):
    return min(x, 871)


def tango_limit(x):
    return min(x, 602)


def raven_limit(x):
    return min(x, 678)
