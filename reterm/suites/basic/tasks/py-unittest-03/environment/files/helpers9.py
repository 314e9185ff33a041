def percent(part, whole):
    return round(100 * part / whole, 1)


def is_leap(year):
    return year % 4 == 0 and year % 100 != 0


def slugify(text):
    return "-".join(text.lower().split())
