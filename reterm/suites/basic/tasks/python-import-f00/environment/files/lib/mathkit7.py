def scale(values):
    return [v * 2 for v in values]
