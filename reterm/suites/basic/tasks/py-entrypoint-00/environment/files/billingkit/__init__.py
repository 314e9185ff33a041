"""The billingkit package."""
__version__ = "3.0"
