RATE = 16


def line(name, qty):
    return f"{name}: {qty} x {RATE} = {qty * RATE}"


def total(items):
    return sum(qty for _, qty in items) * RATE
