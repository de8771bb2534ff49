"""sampling simulations."""

__all__ = []
