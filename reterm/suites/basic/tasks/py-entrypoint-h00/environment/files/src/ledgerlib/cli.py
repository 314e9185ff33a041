from . import __version__
from .calc import line, total

ITEMS = [('ember', 36), ('tango', 7), ('lumen', 11), ('gamma', 19), ('kepler', 33)]


def main():
    with open("/app/totals_vertex.txt", "w") as f:
        for name, qty in ITEMS:
            f.write(line(name, qty) + "\n")
        f.write(f"total: {total(ITEMS)} (ledgerlib {__version__})\n")


if __name__ == "__main__":
    main()
