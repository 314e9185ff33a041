from .. import __version__
from ..calc import line, total

ITEMS = [('tango', 35), ('fjord', 37), ('vertex', 8), ('quartz', 26)]


def main():
    with open("/app/usage_alpha.txt", "w") as f:
        for name, qty in ITEMS:
            f.write(line(name, qty) + "\n")
        f.write(f"total: {total(ITEMS)} (scoringkit {__version__})\n")


if __name__ == "__main__":
    main()
