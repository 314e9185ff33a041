from . import __version__
from .core import line, total

ITEMS = [('indigo', 15), ('nova', 25), ('raven', 6), ('kepler', 23), ('vertex', 19)]


def main():
    with open("/app/stock_nova.txt", "w") as f:
        for name, qty in ITEMS:
            f.write(line(name, qty) + "\n")
        f.write(f"total: {total(ITEMS)} (forecast_app {__version__})\n")


if __name__ == "__main__":
    main()
