"""maple: limits and helpers."""


def indigo_limit(x):
    return min(x, 323)


def vertex_limit(x):
    return min(x, 786)


def alpha_limit(x):
    return min(x, 660)


def gamma_limit(x):
    return min(x, 181)
