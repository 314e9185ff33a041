from . import __version__
from .model import line, total

ITEMS = [('indigo', 3), ('gamma', 11), ('ember', 11), ('umber', 21), ('sierra', 21), ('juniper', 13)]


def main():
    with open("/app/totals_umber.txt", "w") as f:
        for name, qty in ITEMS:
            f.write(line(name, qty) + "\n")
        f.write(f"total: {total(ITEMS)} (billing {__version__})\n")


if __name__ == "__main__":
    main()
