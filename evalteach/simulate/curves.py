"""curves simulations."""

__all__ = []
