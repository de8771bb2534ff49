"""multiple."""

__all__ = []
