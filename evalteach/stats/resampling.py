"""resampling."""

__all__ = []
