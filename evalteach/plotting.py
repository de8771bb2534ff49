"""Theme and shared drawing helpers.

The palette is Okabe and Ito's, safe for the common forms of colour blindness,
and every explorer reads the current theme when it builds its figure.
:func:`presenter` switches every open explorer to projector scale.
"""
from __future__ import annotations

import weakref
from dataclasses import dataclass, replace

from cycler import cycler

# Okabe & Ito (2008), "Color Universal Design".
PALETTE = {
    "blue": "#0072B2",
    "orange": "#E69F00",
    "green": "#009E73",
    "vermillion": "#D55E00",
    "sky": "#56B4E9",
    "purple": "#CC79A7",
    "yellow": "#F0E442",
    "black": "#000000",
    "grey": "#7F7F7F",
}
# Roles used across explorers, so a colour means the same thing everywhere.
COLORS = {
    "data": PALETTE["blue"],
    "theory": PALETTE["orange"],
    "normal": PALETTE["vermillion"],
    "truth": PALETTE["black"],
    "good": PALETTE["green"],
    "bad": PALETTE["vermillion"],
    "second": PALETTE["purple"],
    "shade": PALETTE["sky"],
    "muted": PALETTE["grey"],
}
CYCLE = [PALETTE[k] for k in ("blue", "orange", "green", "vermillion", "purple", "sky", "yellow", "black")]


@dataclass(frozen=True)
class Theme:
    """Sizes an explorer uses when it builds its figure and controls."""

    name: str = "classroom"
    font_size: float = 10.0
    line_width: float = 1.8
    dpi: float = 80.0
    control_width: str = "330px"
    control_font: str = "13px"

    def rc(self):
        """Matplotlib rcParams for this theme."""
        return {
            "font.size": self.font_size,
            "axes.titlesize": self.font_size * 1.1,
            "axes.labelsize": self.font_size,
            "xtick.labelsize": self.font_size * 0.9,
            "ytick.labelsize": self.font_size * 0.9,
            "legend.fontsize": self.font_size * 0.85,
            "lines.linewidth": self.line_width,
            "axes.prop_cycle": cycler(color=CYCLE),
            "axes.spines.top": False,
            "axes.spines.right": False,
            "figure.dpi": self.dpi,
            "savefig.dpi": self.dpi,
        }


CLASSROOM = Theme()
PRESENTER = replace(
    CLASSROOM, name="presenter", font_size=15.0, line_width=3.0, dpi=96.0,
    control_width="460px", control_font="19px",
)

_current = CLASSROOM
_listeners = weakref.WeakSet()


def theme() -> Theme:
    """The theme in force."""
    return _current


def presenter(on=True):
    """Switch to presenter scale (``on=True``) or back to classroom scale.

    Larger fonts, thicker lines and wider controls for a projector. Every
    explorer already on screen is redrawn in the new scale.

    Examples
    --------
    >>> import evalteach
    >>> evalteach.presenter()          # before the lecture
    >>> evalteach.presenter(False)     # back to laptop scale
    """
    global _current
    if not isinstance(on, bool):
        raise TypeError(f"on must be True or False, got {on!r}")
    _current = PRESENTER if on else CLASSROOM
    for listener in list(_listeners):
        listener.restyle()


def listen(obj):
    """Register an object whose ``restyle()`` is called when the theme changes."""
    _listeners.add(obj)
