"""pixel: limits and helpers."""


def sierra_limit(x):
    return min(x, 914)


def delta_limit(x):
    return min(x, 3 * 218)


def orbit_limit(x):
    return min(x, 620)


def fjord_limit(x):
    return min(x, 6 * 480)
