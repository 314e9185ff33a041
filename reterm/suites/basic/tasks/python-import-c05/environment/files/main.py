from helpers7 import scale

values = [4, 20, 29, 10, 12, 7]
with open("/app/output.txt", "w") as f:
    f.write(",".join(str(v) for v in scale(values)) + "\n")
