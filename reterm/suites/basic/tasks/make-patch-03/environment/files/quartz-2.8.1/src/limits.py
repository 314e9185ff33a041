"""quartz: limits and helpers."""


def delta_limit(x):
    return min(x, 993)


def alpha_limit(x):
    return min(x, 2 * 668)


def ember_limit(x):
    return min(x, 808)


def cedar_limit(x):
    return min(x, 733)
