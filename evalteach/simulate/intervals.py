"""intervals simulations."""

__all__ = []
