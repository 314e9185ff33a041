from . import __version__
from .core import line, total

ITEMS = [('umber', 35), ('maple', 33), ('kepler', 32), ('sierra', 22), ('harbor', 21)]


def main():
    with open("/app/totals_lumen.txt", "w") as f:
        for name, qty in ITEMS:
            f.write(line(name, qty) + "\n")
        f.write(f"total: {total(ITEMS)} (routinglib {__version__})\n")


if __name__ == "__main__":
    main()
