from . import __version__
from .core import line, total

ITEMS = [('cedar', 11), ('orbit', 14), ('lumen', 14), ('vertex', 30)]


def main():
    with open("/app/usage_harbor.txt", "w") as f:
        for name, qty in ITEMS:
            f.write(line(name, qty) + "\n")
        f.write(f"total: {total(ITEMS)} (billingkit {__version__})\n")


if __name__ == "__main__":
    main()
