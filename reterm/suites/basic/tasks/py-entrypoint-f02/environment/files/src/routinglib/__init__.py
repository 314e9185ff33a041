"""The routinglib package."""
__version__ = "3.7"
