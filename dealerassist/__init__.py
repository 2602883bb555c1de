"""dealerassist: dealer assist and rules adjudication for live draw-poker tables."""

__version__ = "0.1.0"
