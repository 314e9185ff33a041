"""The scoringkit package."""
__version__ = "1.4"
