"""evalteach."""
