"""An axis whose limits move in a few coarse steps, drawn once per limits and then pasted back.

Tick labels are the expensive part of a picture (text), so an explorer keeps them in the
static background, drawn only on a full redraw of the figure. An axis whose limits follow
the data (in coarse steps, so that small moves keep them) would then cost a full redraw at
every step. A :class:`CachedAxis` takes the axis out of the background instead: marked
dynamic, it draws the axis (ticks, tick labels, label, grid lines) the first time it meets
a pair of limits, keeps a copy of the pixels of the axes and the axis' labels, and later
pastes that copy back: a memory copy of one panel, not a redraw of the figure.
"""
from __future__ import annotations

from collections import OrderedDict

from matplotlib.artist import Artist
from matplotlib.transforms import Bbox


class CachedAxis(Artist):
    """Draw ``axis`` once per view limits, then paste the cached pixels.

    Parameters
    ----------
    axis : matplotlib.axis.Axis
        ``ax.xaxis`` or ``ax.yaxis``. It is made animated, so that a full draw of the
        figure leaves it out; give this artist to :meth:`Explorer.dynamic` before the
        artists drawn inside the same axes (the paste covers the whole axes).
    size : int
        Limits kept (least recently used go first); each holds one copy of the panel.

    Notes
    -----
    The ticks must depend on the limits only (fixed locator and formatter), and the
    pasted region (the axes and the axis' labels) must hold only static artists and
    this axis. Every full draw of the figure forgets the copies, since the background
    they were taken over may have changed.
    """

    def __init__(self, axis, size=8):
        super().__init__()
        axis.set_animated(True)
        self.axis = axis
        self.size = size
        self._pixels = OrderedDict()
        axis.get_figure(root=True).canvas.mpl_connect("draw_event", lambda _: self._pixels.clear())

    def draw(self, renderer):
        ax = self.axis.axes
        key = (tuple(self.axis.get_view_interval()), renderer.width, renderer.height,
               tuple(ax.get_position().bounds))
        pixels = self._pixels.get(key)
        if pixels is not None:
            self._pixels.move_to_end(key)
            renderer.restore_region(pixels)
            return
        self.axis.draw(renderer)
        region = Bbox.union([ax.bbox, self.axis.get_tightbbox(renderer)]).padded(2)
        canvas = Bbox.from_bounds(0, 0, renderer.width, renderer.height)
        self._pixels[key] = renderer.copy_from_bbox(Bbox.intersection(region, canvas))
        while len(self._pixels) > self.size:
            self._pixels.popitem(last=False)
