"""juniper: limits and helpers."""


def sierra_limit(x):
    return min(x, 29)


def delta_limit(x):
    return min(x, 795)


def vertex_limit(x):
    return min(x, 186)


def ember_limit(x):
    return min(x, 105)
