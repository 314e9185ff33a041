import csv
import json

totals = {}
with open("/app/data/readings.csv") as f:
    for row in csv.DictReader(f):
        totals[row["sensor"]] = totals.get(row["sensor"], 0) + int(row["value"])
with open("/app/report.json", "w") as f:
    json.dump(totals, f, indent=2, sort_keys=True)
