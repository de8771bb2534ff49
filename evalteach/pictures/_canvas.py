"""What every result's picture shares: the theme, the panels, and a crisp PNG with a text alternative.

A picture is drawn into the Axes the caller gives, or into a new :class:`ResultFigure`
sized for a notebook cell. Either way the current theme (:func:`evalteach.presenter`)
is in force while it draws, as it is for the explorers: presenter scale grows fonts,
lines and the figure together, high contrast darkens every text.
"""
from __future__ import annotations

import base64
import io
import re
from contextlib import contextmanager

import matplotlib as mpl
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .. import plotting

#: gids of the artists that carry a result's numbers, so that a reader (or a test) can find
#: them: the shaded share that stands for a p-value, the interval, the statistic, ...
P_VALUE, INTERVAL, ESTIMATE, STATISTIC, NULL = "p-value", "interval", "estimate", "statistic", "null"


class ResultFigure(Figure):
    """The figure a result's ``plot()`` makes when it is given no Axes.

    In a notebook it shows as a PNG rendered at the theme's pixel density (twice the
    pixels of its size on screen: crisp on 2x screens and projectors, as the explorers
    are) and displayed at its size on screen, with ``alt``, the result's verdict, as the
    image's text alternative where the front end reads one (nbconvert's classic HTML
    template; the ``text/plain`` part of the output elsewhere).
    """

    def __init__(self, *args, alt="", css_dpi=plotting.CLASSROOM.dpi, density=plotting.CLASSROOM.density, **kwargs):
        super().__init__(*args, **kwargs)
        self.alt = alt
        self.css_dpi = css_dpi
        self.density = density

    def png(self):
        """The picture as PNG bytes, ``density`` image pixels per CSS pixel."""
        buffer = io.BytesIO()
        with plotting.DRAWING:
            self.savefig(buffer, format="png", dpi=self.css_dpi * self.density)
        return buffer.getvalue()

    def _ipython_display_(self):
        # IPython calls this instead of its own formatters, which would render at the
        # figure's dpi with no size or text alternative
        from IPython.display import display

        width, height = (round(x * self.css_dpi) for x in self.get_size_inches())
        metadata = {"width": width, "height": height}
        if self.alt:
            metadata["alt"] = self.alt
        bundle = {"image/png": base64.b64encode(self.png()).decode("ascii"), "text/plain": self.alt or repr(self)}
        display(bundle, raw=True, metadata={"image/png": metadata})


def single(r, field):
    """Refuse a batch: a result whose ``field`` is an array holds many tests, and a picture shows one."""
    value = getattr(r, field)
    if getattr(value, "ndim", 0) > 0:
        raise ValueError(f"plot draws one test; this {type(r).__name__} holds a batch of {value.size} "
                         f"(its {field} is an array of shape {value.shape}): index the input to draw one")


def first_sentence(text):
    """The first sentence of a verdict: up to the first '.', '!' or '?' before a space
    and a capital letter or a parenthesis (decimal points are followed by digits)."""
    return re.split(r"(?<=[.!?])\s+(?=[A-Z(])", text.strip(), maxsplit=1)[0]


def _check_ax(ax, panels):
    """``ax`` as a list of ``panels`` Axes, or None; a TypeError/ValueError names what it got."""
    if ax is None:
        return None
    if isinstance(ax, Axes):
        return [ax]
    try:
        given = list(ax)
    except TypeError:
        raise TypeError(f"ax must be a matplotlib Axes, got {type(ax).__name__}") from None
    if len(given) != panels or not all(isinstance(a, Axes) for a in given):
        raise ValueError(f"ax must be one matplotlib Axes or a sequence of {panels}, got {ax!r}")
    return given


def _split(ax, panels, vertical, ratios):
    """Divide one Axes of a grid into ``panels``: the given Axes becomes the first."""
    spec = ax.get_subplotspec()
    if spec is None:
        raise ValueError(f"ax must be an Axes of a grid (made by subplots) to hold this picture's {panels} panels, "
                         f"or a sequence of {panels} Axes; got {ax!r}")
    shape = (panels, 1) if vertical else (1, panels)
    ratio_key = "height_ratios" if vertical else "width_ratios"
    grid = spec.subgridspec(*shape, **({ratio_key: ratios} if ratios else {}))
    ax.set_subplotspec(grid[0])
    return [ax] + [ax.figure.add_subplot(grid[i]) for i in range(1, panels)]


def _new_figure(panels, figsize, vertical, ratios, alt, theme):
    import matplotlib.pyplot as plt  # a figure pyplot knows is shown by the notebook's inline backend

    size = (figsize[0] * theme.figure_scale, figsize[1] * theme.figure_scale)
    figure = plt.figure(FigureClass=ResultFigure, figsize=size, layout="constrained", alt=alt,
                        css_dpi=theme.dpi, density=theme.density)
    shape = (panels, 1) if vertical else (1, panels)
    ratio_key = "height_ratios" if vertical else "width_ratios"
    axes = figure.subplots(*shape, squeeze=False, **({ratio_key: ratios} if ratios else {}))
    return list(axes.ravel())


@contextmanager
def panels(result, ax, *, count=1, figsize=(6.4, 3.6), vertical=False, ratios=None):
    """Yield the Axes a picture draws in, with the current theme in force.

    Parameters
    ----------
    result : Result
        The result drawn; its verdict's first sentence becomes a new figure's text alternative.
    ax : Axes, sequence of Axes or None
        None: a new :class:`ResultFigure` of ``figsize`` inches (grown at presenter scale).
        One Axes: it is drawn into, divided into ``count`` panels when there are several.
        A sequence: one Axes per panel.
    count : int
        How many panels the picture has.
    vertical, ratios
        Panels one above the other (else side by side), and their relative sizes.
    """
    axes = _check_ax(ax, count)
    theme = plotting.theme()
    rc = theme.rc()
    for key in ("figure.dpi", "savefig.dpi"):  # the backend's canvas; ResultFigure renders at the theme's
        rc.pop(key)
    with plotting.DRAWING, mpl.rc_context(rc):
        if axes is None:
            axes = _new_figure(count, figsize, vertical, ratios, first_sentence(result.verdict), theme)
        elif len(axes) < count:
            axes = _split(axes[0], count, vertical, ratios)
        yield axes
        for a in axes:
            # ticks are made when first drawn; made now, they take the theme's sizes
            a.xaxis.get_major_ticks()
            a.yaxis.get_major_ticks()
            if theme.contrast == "high":
                plotting.harden_text(a)
