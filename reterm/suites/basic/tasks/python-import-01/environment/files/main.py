from helpers4 import scale

values = [22, 9, 10, 35, 26, 29]
with open("/app/output.txt", "w") as f:
    f.write(",".join(str(v) for v in scale(values)) + "\n")
