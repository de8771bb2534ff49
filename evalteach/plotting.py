"""Theme and shared drawing helpers.

The palette is Okabe and Ito's, safe for the common forms of colour blindness,
and every explorer reads the current theme when it builds its figure.
:func:`presenter` switches every open explorer to projector scale.
"""
from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass, replace

from cycler import cycler

from . import _validate

#: Held while evalteach draws. matplotlib renders text with FreeType through one library
#: object shared by every thread, and FreeType does not support overlapping calls on one
#: library (FreeType API reference, FT_Library); a kernel can run widget callbacks on a
#: second thread (JupyterLab's comms over subshells).
DRAWING = threading.RLock()

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
#: gid of a text that labels the data it sits on (a count on a bar): the overlap test
#: (tests/test_text_overlap.py) lets it cover data. ``text.set_gid(ON_DATA)``.
ON_DATA = "evalteach-on-data"
CYCLE = [PALETTE[k] for k in ("blue", "orange", "green", "vermillion", "purple", "sky", "yellow", "black")]


@dataclass(frozen=True)
class Theme:
    """Sizes an explorer uses when it builds its figure and controls."""

    name: str = "classroom"
    font_size: float = 10.0
    line_width: float = 1.8
    #: CSS pixels per inch of figure: the picture's size on screen.
    dpi: float = 80.0
    #: Image pixels per CSS pixel (2: crisp on 2x screens and when the page scales it up).
    density: float = 2.0
    #: Figure size relative to the explorer's ``figsize``; grows with the fonts so the
    #: layout stays the same at every scale.
    figure_scale: float = 1.0
    #: "normal" or "high" (projector): black frames, thicker lines, text at 7:1 or more, no pale line colours.
    contrast: str = "normal"
    control_width: str = "330px"
    control_font: str = "13px"

    @property
    def cycle(self):
        """Line colours in order; high contrast drops yellow and sky blue (pale on white)."""
        if self.contrast == "high":
            return [c for c in CYCLE if c not in (PALETTE["yellow"], PALETTE["sky"])]
        return CYCLE

    def rc(self):
        """Matplotlib rcParams for this theme."""
        rc = {
            "font.size": self.font_size,
            "axes.titlesize": self.font_size * 1.1,
            "axes.labelsize": self.font_size,
            "xtick.labelsize": self.font_size * 0.9,
            "ytick.labelsize": self.font_size * 0.9,
            "legend.fontsize": self.font_size * 0.85,
            "lines.linewidth": self.line_width,
            "axes.prop_cycle": cycler(color=self.cycle),
            "axes.spines.top": False,
            "axes.spines.right": False,
            "figure.dpi": self.dpi,
            "savefig.dpi": self.dpi,
            # Unhinted text: every digit equally wide (matplotlib 3.10's autohinting widens
            # some), so the explorers' frozen layouts are the same whatever numbers they
            # showed; as quick to draw as autohinting, and at twice the pixel density as sharp
            "text.hinting": "no_hinting",
        }
        # Everything else measured in points grows with the fonts, so a larger theme is
        # the same picture, larger (matplotlib's defaults are for 10-point text).
        import matplotlib as mpl  # here, not at the top: `import evalteach` stays light

        scale = self.font_size / 10.0
        for key in ("xtick.major.pad", "ytick.major.pad", "xtick.minor.pad", "ytick.minor.pad",
                    "xtick.major.size", "ytick.major.size", "xtick.minor.size", "ytick.minor.size",
                    "axes.labelpad", "axes.titlepad", "lines.markersize", "lines.markeredgewidth",
                    "figure.constrained_layout.h_pad", "figure.constrained_layout.w_pad"):
            rc[key] = mpl.rcParamsDefault[key] * scale
        if self.contrast == "high":
            frame = self.line_width / 2
            rc.update({"text.color": "black", "axes.labelcolor": "black", "axes.edgecolor": "black",
                       "xtick.color": "black", "ytick.color": "black", "axes.linewidth": frame,
                       "xtick.major.width": frame, "ytick.major.width": frame,
                       "grid.color": "#404040", "grid.alpha": 0.6, "legend.framealpha": 1.0,
                       "legend.edgecolor": "black", "patch.linewidth": frame})
        return rc


CLASSROOM = Theme()
# Fonts and figure grow together (1.5x), so the picture is the classroom one, larger.
PRESENTER = replace(
    CLASSROOM, name="presenter", font_size=15.0, line_width=3.0, figure_scale=1.5,
    control_width="460px", control_font="19px",
)
HIGH_CONTRAST = replace(PRESENTER, name="presenter-high-contrast", line_width=3.6, contrast="high")

_current = CLASSROOM
_listeners = weakref.WeakSet()


def theme() -> Theme:
    """The theme in force."""
    return _current


def points(size):
    """A marker size or marker edge width in points, given at classroom scale and grown
    with the theme's fonts, as matplotlib's default marker size is (6 points at 10-point
    text): at presenter scale a dot keeps its size relative to the larger figure."""
    return size * _current.font_size / CLASSROOM.font_size


def area(size):
    """A scatter marker's area in points squared, given at classroom scale and grown with
    the theme's fonts (see :func:`points`)."""
    return size * (_current.font_size / CLASSROOM.font_size) ** 2


def dots(ax, size, **style):
    """Round dots of one colour, as a line's markers without the line: the pixels
    ``ax.scatter([], [], s=size, **style)`` draws, with an edge that grows with the theme's
    fonts as ``size`` does (see :func:`points`). Set them with ``set_data(x, y)``.

    Why not a scatter: on every draw of a one-colour scatter matplotlib measures the
    circle's Bézier curves (``Path.get_extents``, about 4 ms here); a line's markers are
    drawn without being measured.
    """
    import matplotlib as mpl  # here: importing evalteach loads no matplotlib

    (line,) = ax.plot([], [], "o", ls="none", ms=size ** 0.5, mew=points(mpl.rcParams["patch.linewidth"]), **style)
    return line


def presenter(on=True, *, contrast="normal"):
    """Switch to presenter scale (``on=True``) or back to classroom scale.

    Larger fonts, thicker lines and wider controls for a projector; the figures
    grow with the fonts, so nothing is cut off. ``contrast="high"`` also draws
    black frames, thicker lines, every text at least 7:1 against white (grey notes
    and coloured labels darkened, their hue kept: :func:`legible`), and leaves out
    the pale palette colours (yellow, sky blue) from the line colours, for
    washed-out projectors; the remaining Okabe-Ito colours stay colour-blind safe.
    Every explorer already on screen is redrawn.

    Examples
    --------
    >>> import evalteach
    >>> evalteach.presenter()                  # before the lecture
    >>> evalteach.presenter(contrast="high")   # on a pale projector
    >>> evalteach.presenter(False)             # back to laptop scale
    """
    global _current
    on = _validate.boolean("on", on)
    if contrast not in ("normal", "high"):
        raise ValueError(f"contrast must be 'normal' or 'high', got {contrast!r}")
    _current = (HIGH_CONTRAST if contrast == "high" else PRESENTER) if on else CLASSROOM
    for listener in list(_listeners):
        listener.restyle()


#: The least contrast ratio of text against white in high contrast: WCAG 2.1's enhanced
#: level (1.4.6 AAA), since a projector washes contrast out.
TEXT_CONTRAST = 7.0


def _luminance(rgb):
    """Relative luminance of an sRGB colour (WCAG 2.1 definition)."""
    import numpy as np

    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    return float(linear @ [0.2126, 0.7152, 0.0722])


def legible(color, ratio=TEXT_CONTRAST):
    """``color`` darkened (its hue kept) until text in it reaches ``ratio`` against white.

    Contrast ratio ``(L_white + 0.05) / (L + 0.05)`` with relative luminance ``L``, as
    defined by WCAG 2.1 (W3C 2018). Colours that already reach it come back unchanged.

    Examples
    --------
    >>> legible("#7F7F7F")   # grey text: 3.98:1, darkened to 7:1
    '#595959'
    >>> legible("black")
    'black'
    """
    import numpy as np
    from matplotlib.colors import to_hex, to_rgb

    rgb = np.array(to_rgb(color))
    if 1.05 / (_luminance(rgb) + 0.05) >= ratio:
        return color
    low, high = 0.0, 1.0  # the largest factor that reaches the ratio
    for _ in range(30):
        mid = (low + high) / 2
        low, high = (mid, high) if 1.05 / (_luminance(rgb * mid) + 0.05) >= ratio else (low, mid)
    return to_hex(np.floor(rgb * low * 255) / 255)  # rounded down: still at least the ratio


def harden_text(figure):
    """Give every text of ``figure`` a legible colour (:func:`legible`): the high-contrast
    theme's rule, applied after each draw of the artists, so colours set while drawing
    (a verdict in green or orange) are covered too."""
    from matplotlib.text import Text

    for text in figure.findobj(Text):
        color = text.get_color()
        key = color if isinstance(color, str) else tuple(color)
        hard = _legible.get(key)
        if hard is None:
            hard = _legible[key] = legible(color)
        if hard is not color:
            text.set_color(hard)


_legible = {}  # colour -> its legible form, for harden_text


def listen(obj):
    """Register an object whose ``restyle()`` is called when the theme changes."""
    _listeners.add(obj)


def fast_x_axis(ax):
    """An x axis that redraws faster: at most six ticks, and the label at a fixed distance
    below the axes (tick, pad, one line of tick label, label pad), where matplotlib would
    otherwise measure every tick label on each draw to find it. Returns the transform of
    the label's place (x and y in axes coordinates, y = 0 just below the tick labels)."""
    from matplotlib.ticker import MaxNLocator  # here: importing evalteach loads no matplotlib
    from matplotlib.transforms import ScaledTranslation

    ax.xaxis.set_major_locator(MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10]))
    tick = ax.xaxis.get_major_ticks()[0]
    points = tick.get_tick_padding() + tick.get_pad() + 1.15 * tick.label1.get_fontsize() + ax.xaxis.labelpad
    below = ax.transAxes + ScaledTranslation(0, -points / 72, ax.get_figure(root=True).dpi_scale_trans)
    ax.xaxis.set_label_coords(0.5, 0.0, transform=below)
    return below
