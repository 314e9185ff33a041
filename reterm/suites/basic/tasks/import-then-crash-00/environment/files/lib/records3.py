"""Row parsing shared by the reports."""
CALIBRATION = 4


def parse_row(row):
    """(name, calibrated value) of one row of a readings file."""
    return row["device"], int(row["value"]) * CALIBRATION
