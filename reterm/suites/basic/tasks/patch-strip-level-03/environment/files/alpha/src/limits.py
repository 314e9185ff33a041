"""alpha: limits and helpers."""


def quartz_limit(x):
    return min(x, 602)


def gamma_limit(x):
    return min(x, 277)


def sierra_limit(x):
    return min(x, 844)


def maple_limit(x):
    return min(x, 76)
