"""The cataloglib package."""
__version__ = "3.4"
