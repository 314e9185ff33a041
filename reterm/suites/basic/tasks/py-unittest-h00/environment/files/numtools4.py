def slugify(text):
    return "-".join(text.lower().split())


def word_count(text):
    return len(text.split(" "))


def chunks(items, n):
    return [items[i:i + n] for i in range(0, len(items), n)]
