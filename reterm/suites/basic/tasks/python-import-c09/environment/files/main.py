from mathkit1 import scale

values = [14, 49, 48, 2, 48, 10]
with open("/app/output.txt", "w") as f:
    f.write(",".join(str(v) for v in scale(values)) + "\n")
