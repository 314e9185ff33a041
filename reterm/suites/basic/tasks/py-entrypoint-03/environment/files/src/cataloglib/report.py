from . import __version__
from .core import line, total

ITEMS = [('indigo', 9), ('tango', 20), ('pixel', 1), ('alpha', 23), ('umber', 22)]


def main():
    with open("/app/totals_umber.txt", "w") as f:
        for name, qty in ITEMS:
            f.write(line(name, qty) + "\n")
        f.write(f"total: {total(ITEMS)} (cataloglib {__version__})\n")


if __name__ == "__main__":
    main()
