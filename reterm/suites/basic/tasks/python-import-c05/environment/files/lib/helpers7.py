def scale(values):
    return [v * 8 for v in values]
