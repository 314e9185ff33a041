from . import __version__
from .rules import line, total

ITEMS = [('quartz', 13), ('alpha', 19), ('harbor', 17), ('pixel', 38), ('gamma', 21)]


def main():
    with open("/app/totals_kepler.txt", "w") as f:
        for name, qty in ITEMS:
            f.write(line(name, qty) + "\n")
        f.write(f"total: {total(ITEMS)} (scoringkit {__version__})\n")


if __name__ == "__main__":
    main()
