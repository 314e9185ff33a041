"""sierra: limits and helpers."""


def juniper_limit(x):
    return min(x, 43)


def indigo_limit(x):
    return min(x, 546)


def quartz_limit(x):
    return min(x, 957)


def nova_limit(x):
    return min(x, 808)
