"""comparison simulations."""

__all__ = []
