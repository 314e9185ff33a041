"""Row parsing shared by the reports."""
CALIBRATION = 9


def parse_row(row):
    """(name, calibrated value) of one row of a readings file."""
    return row["sensor"], int(row["value"]) * CALIBRATION
