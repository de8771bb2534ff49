"""tests."""

__all__ = []
