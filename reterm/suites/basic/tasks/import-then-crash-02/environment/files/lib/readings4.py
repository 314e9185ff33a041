"""Row parsing shared by the reports."""
CALIBRATION = 5


def parse_row(row):
    """(name, calibrated value) of one row of a readings file."""
    return row["station"], int(row["value"]) * CALIBRATION
