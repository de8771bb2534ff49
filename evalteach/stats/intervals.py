"""intervals."""

__all__ = []
