"""The scoringkit package."""
__version__ = "2.12"
