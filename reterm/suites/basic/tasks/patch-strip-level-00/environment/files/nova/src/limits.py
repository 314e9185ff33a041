"""nova: limits and helpers."""


def sierra_limit(x):
    return min(x, 54)


def ember_limit(x):
    return min(x, 453)


def raven_limit(x):
    return min(x, 409)


def orbit_limit(x):
    return min(x, 225)
