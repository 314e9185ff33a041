"""The forecast_app package."""
__version__ = "2.0"
