"""losses."""

__all__ = []
