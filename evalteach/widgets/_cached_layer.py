"""A layer of artists drawn once per key and then pasted back as pixels.

The explorer base caches one background (everything not marked dynamic) and redraws the
dynamic artists over it on every update. Some artists change with a mode or with the data
but not with every control: the tick labels, axis labels and legends of one mode, or the
curve and tick labels of one data set. Drawn on every update they cost most of the time
(text is the expensive part of a picture); made static they force a full redraw on every
mode switch. A :class:`CachedLayer` sits between the two: given to
:meth:`Explorer.dynamic` first, it draws its artists when its key is new, keeps a copy of
the canvas, and on later updates with the same key pastes the copy back (a memory copy).
Layers stack: a layer with ``under`` starts from that layer's pixels, so what one mode
shows is drawn once per mode and what one data set shows once per data set. A layer with a
``region`` keeps and pastes only that part of the canvas: layers whose regions do not
overlap change independently (one panel per parent distribution, another per zoom) and
hold a fraction of the memory.
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np
from matplotlib.artist import Artist
from matplotlib.transforms import Bbox


class CachedLayer(Artist):
    """Artists drawn once per key; later draws with the same key paste the cached pixels.

    Parameters
    ----------
    under : CachedLayer, optional
        The layer this one is drawn on; a miss draws it first (from its own cache).
    size : int
        Keys kept (least recently used go first); each holds one copy of the canvas (or
        of its region).
    region : callable, optional
        ``region(figure)`` gives the Bbox (display pixels) this layer's artists draw in;
        only it is kept and pasted. Default: the whole canvas. The regions of layers that
        do not stack must not overlap.

    Notes
    -----
    The artists must be animated (so that a full draw of the figure leaves them out) and
    must show the same pixels whenever the key is the same: the key names everything they
    depend on. The cache is also keyed by the canvas size and the axes positions, so a new
    pixel density or layout draws afresh.
    """

    def __init__(self, under=None, size=2, region=None):
        super().__init__()
        self.under = under
        self.size = size
        self.region = region
        self.key = None
        self.artists = ()
        self._pixels = OrderedDict()

    def show(self, key, artists):
        """Draw ``artists`` in this layer, cached under ``key`` (any hashable)."""
        self.key = key
        self.artists = tuple(artists)

    def clear(self):
        """Forget every cached copy (the next draw draws afresh)."""
        self._pixels.clear()
        if self.under is not None:
            self.under.clear()

    def _entry(self, renderer):
        figure = self.artists[0].get_figure(root=True) if self.artists else None
        layout = tuple(tuple(ax.get_position().bounds) for ax in figure.axes) if figure else ()
        return self.key, renderer.width, renderer.height, layout

    def draw(self, renderer):
        entry = self._entry(renderer)
        pixels = self._pixels.get(entry)
        if pixels is not None:
            self._pixels.move_to_end(entry)
            renderer.restore_region(pixels)
            return
        if self.under is not None:
            self.under.draw(renderer)
        for artist in self.artists:
            artist.draw(renderer)
        if self.region is None:
            box = Bbox.from_bounds(0, 0, renderer.width, renderer.height)
        else:
            # to whole pixels, as Agg rounds its clip boxes: a pixel row that an axes edge
            # cuts belongs to the side that draws into it
            box = Bbox(np.round(self.region(self.artists[0].get_figure(root=True)).get_points()))
        self._pixels[entry] = renderer.copy_from_bbox(box)
        while len(self._pixels) > self.size:
            self._pixels.popitem(last=False)
