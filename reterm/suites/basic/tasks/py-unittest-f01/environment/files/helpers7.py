def chunks(items, n):
    return [items[i:i + n] for i in range(0, len(items), n)]


def is_leap(year):
    return year % 4 == 0 and (year % 100 != 0 or year % 400 == 0)


def word_count(text):
    return len(text.split(" "))
