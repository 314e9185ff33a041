def percent(part, whole):
    return round(100 * part / whole, 1)


def clamp(x, lo, hi):
    if x < lo:
        return lo
    if x > hi:
        return lo
    return x


def is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)
