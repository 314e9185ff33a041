"""The billing package."""
__version__ = "3.2"
