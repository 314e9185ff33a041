"""ReTerm: train terminal agents to recover from their own failures."""

__version__ = "0.1.0"
