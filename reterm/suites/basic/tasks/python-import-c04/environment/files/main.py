from formatting1 import scale

values = [30, 6, 10, 7, 15, 20]
with open("/app/output.txt", "w") as f:
    f.write(",".join(str(v) for v in scale(values)) + "\n")
