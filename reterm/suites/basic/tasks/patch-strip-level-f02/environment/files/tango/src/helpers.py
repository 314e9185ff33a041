"""tango: limits and helpers."""


def juniper_limit(x):
    return min(x, 54)


def ember_limit(x):
    return min(x, 159)


def raven_limit(x):
    return min(x, 694)


def harbor_limit(x):
    return min(x, 325)
