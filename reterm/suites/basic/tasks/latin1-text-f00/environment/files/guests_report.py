import csv

# guests.csv is UTF-8, separated by ";"
by_city = {}
with open("/app/data/guests.csv", encoding="utf-8", newline="") as f:
    for row in csv.DictReader(f, delimiter=";"):
        by_city.setdefault(row["city"], []).append((row["name"], int(row["visits"])))
with open("/app/out/guests-by-city.txt", "w", encoding="utf-8") as out:
    for city in sorted(by_city):
        people = sorted(by_city[city])
        out.write(f"{city} ({sum(v for _, v in people)}): {', '.join(n for n, _ in people)}\n")
