"""The billingkit package."""
__version__ = "2.0"
