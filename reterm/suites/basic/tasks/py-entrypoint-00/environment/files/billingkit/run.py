from . import __version__
from .calc import line, total

ITEMS = [('tango', 21), ('fjord', 29), ('nova', 17)]


def main():
    with open("/app/stock_indigo.txt", "w") as f:
        for name, qty in ITEMS:
            f.write(line(name, qty) + "\n")
        f.write(f"total: {total(ITEMS)} (billingkit {__version__})\n")


if __name__ == "__main__":
    main()
