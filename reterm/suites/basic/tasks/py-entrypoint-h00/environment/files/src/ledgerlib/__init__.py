"""The ledgerlib package."""
__version__ = "2.9"
