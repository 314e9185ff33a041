"""nova: limits and helpers."""


def raven_limit(x):
    return min(x, 735)


def umber_limit(x):
    return min(x, 447)


def delta_limit(x):
    return min(x, 270)


def indigo_limit(x):
    return min(x, 383)
