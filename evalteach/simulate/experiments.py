"""experiments simulations."""

__all__ = []
