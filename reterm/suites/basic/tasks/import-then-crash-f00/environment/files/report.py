import csv
import json

from parsing1 import parse_row

totals = {}
with open("/app/data/readings.csv") as f:
    for row in csv.DictReader(f):
        key, value = parse_row(row)
        totals[key] = totals.get(key, 0) + value
with open("/app/report.json", "w") as f:
    json.dump(totals, f, indent=2, sort_keys=True)
