"""Parts of a picture drawn once per key, then pasted back as the pixels of their box.

The explorer base keeps one background (everything not marked dynamic) and redraws the
dynamic artists over it on every update. Some artists change now and then but not with
every control: the tick labels of an axis range, the legend and axis names of a mode, the
counts of a confusion matrix. Drawn on every update they cost most of the time (text is
the expensive part of a picture: each glyph is rendered afresh); made static they force a
full redraw of the figure whenever they change. A :class:`CachedLayer` sits between the
two. Given to :meth:`Explorer.dynamic`, it draws its artists the first time it meets a
key, keeps a copy of the pixels of its box, and on later draws with the same key pastes
that copy back (a memory copy, not a redraw). The least recently used keys are forgotten
beyond ``size``; a copy is also keyed by the canvas size and the axes' places, so a new
pixel density or layout draws afresh.

The variants differ only in their box and their key:

- :class:`CachedLayer`: the whole canvas, or ``region(renderer)``. Use it for a panel or
  the whole picture of one mode or data set. Layers stack: a layer with ``under`` starts
  a miss by drawing that layer (from its own cache), so what a mode shows is drawn once
  per mode and what a data set shows once per data set.
- :class:`Stamp`: the artists' own box (or ``region(renderer)``), padded for anti-aliased
  edges. A copy is small, so a stamp keeps many keys: every text a table has shown, the
  tick labels of every axis range. :func:`axis_region` is the box of an axis's labels and
  tick marks; :class:`AxisLabel` draws an axis's label as a text of its own, so a label
  that changes with a mode does not redraw the tick labels.
- :class:`CachedAxis`: a stamp of an axis (and the axes it labels) keyed by its limits.
- :class:`CachedText`: a stamp of a text keyed by its string, colour and place.

Two rules follow from pasting pixels. Give a layer to :meth:`Explorer.dynamic` before the
artists drawn over it: a paste puts back its box as it was when the key was first drawn
(background plus the layer's artists). And the boxes of layers drawn in the same update
must not overlap unless stacked (``under``) or keyed by each other's keys. Boxes are whole
pixels (:func:`whole_pixels`), split where Agg splits a clip box; Agg clips markers
(scatter dots) one pixel further, into the row below and the column right of the box, so
markers drawn next to another layer's box are clipped to :func:`marker_clip_box`.

When copies are forgotten: every full draw of the figure forgets every copy, since the
background under them may have changed. The explorers draw in full only for their first
picture, a new pixel density, a relayout or after an error; none that uses a layer
relayouts during ordinary use, so the rule costs no misses there.
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np
from matplotlib.artist import Artist
from matplotlib.text import Text
from matplotlib.transforms import Bbox, BboxBase

#: Pixels added around a stamp's box, for anti-aliased edges.
PAD = 2


def whole_pixels(box):
    """``box`` (display pixels) rounded to whole pixels as Agg rounds a clip box: x half up,
    y half down. A pixel that an axes edge cuts then belongs to the side whose artists
    (clipped to the axes) draw into it, and the regions of two neighbouring axes do not overlap.
    """
    (x0, y0), (x1, y1) = box.get_points()
    return Bbox([[np.floor(x0 + 0.5), np.ceil(y0 - 0.5)], [np.floor(x1 + 0.5), np.ceil(y1 - 0.5)]])


class CachedLayer(Artist):
    """Artists drawn once per key; later draws with the same key paste the pixels of a box.

    Parameters
    ----------
    artists : sequence of Artist
        What the layer draws (made animated, so that a full draw of the figure leaves them
        out); :meth:`show` may replace them.
    under : CachedLayer, optional
        The layer this one is drawn on; a miss draws it first (from its own cache).
    size : int
        Keys kept (least recently used go first); each holds one copy of the box.
    region : callable, optional
        ``region(renderer) -> Bbox`` in display pixels: the box kept and pasted. Default:
        the whole canvas.

    Notes
    -----
    The key must name everything the pixels depend on besides the canvas size and the
    axes' places, which the cache adds itself. Boxes are rounded by :func:`whole_pixels`.
    """

    #: Pixels added around the box.
    pad = 0

    def __init__(self, artists=(), *, under=None, size=2, region=None):
        super().__init__()
        self.under = under
        self.size = size
        self.region = region
        self.key = None
        self.artists = ()
        self._pixels = OrderedDict()
        self._canvas = None
        self.show(None, artists)

    def show(self, key, artists=None):
        """Draw this layer's artists (or ``artists`` from now on) cached under ``key`` (hashable)."""
        self.key = key
        if artists is not None:
            self.artists = tuple(artists)
            for artist in self.artists:
                artist.set_animated(True)

    def clear(self):
        """Forget every cached copy, also of the layers under this one (the next draw draws afresh)."""
        self._pixels.clear()
        if self.under is not None:
            self.under.clear()

    def _key(self, renderer):
        """What the pixels depend on besides the canvas size and the layout."""
        return self.key

    def _box(self, renderer):
        """The box (display pixels) to keep, or None when nothing was drawn."""
        if self.region is None:
            return Bbox.from_bounds(0, 0, renderer.width, renderer.height)
        return self.region(renderer)

    def _watch(self, figure):
        # A full draw of the figure draws a new background: forget the copies taken over the old one.
        if figure.canvas is not self._canvas:
            self._pixels.clear()
            self._canvas = figure.canvas
            self._canvas.mpl_connect("draw_event", self._forget)  # a bound method: held weakly

    def _forget(self, _event):
        self._pixels.clear()

    def draw(self, renderer):
        if not self.artists:
            if self.under is not None:
                self.under.draw(renderer)
            return
        figure = self.artists[0].get_figure(root=True)
        self._watch(figure)
        # the axes' boxes as last placed (get_position would apply their aspect again: 10x slower)
        entry = (self._key(renderer), renderer.width, renderer.height,
                 tuple(tuple(ax.bbox.bounds) for ax in figure.axes))
        if entry in self._pixels:
            self._pixels.move_to_end(entry)
            pixels = self._pixels[entry]
            if pixels is not None:
                renderer.restore_region(pixels)
            return
        if self.under is not None:
            self.under.draw(renderer)
        for artist in self.artists:
            artist.draw(renderer)
        box = self._box(renderer)
        if box is not None:  # padded, inside the canvas, whole pixels
            box = Bbox.intersection(box.padded(self.pad), Bbox.from_bounds(0, 0, renderer.width, renderer.height))
        self._pixels[entry] = None if box is None else renderer.copy_from_bbox(whole_pixels(box))
        while len(self._pixels) > self.size:
            self._pixels.popitem(last=False)


class Stamp(CachedLayer):
    """A layer that keeps only its artists' own box: the union of their tight boxes.

    Parameters
    ----------
    artists : sequence of Artist
    size : int
        Keys kept (least recently used go first); a copy holds only the box.
    region : callable, optional
        ``region(renderer) -> Bbox``: the box, where the tight boxes miss ink (an axis's
        tick marks lie between its tick labels and the axes).
    """

    pad = PAD

    def __init__(self, artists=(), *, size=32, region=None):
        super().__init__(artists, size=size, region=region)

    def _box(self, renderer):
        if self.region is not None:
            return self.region(renderer)
        boxes = [artist.get_tightbbox(renderer) for artist in self.artists if artist.get_visible()]
        boxes = [box for box in boxes if box is not None and box.width > 0 and box.height > 0]
        return Bbox.union(boxes) if boxes else None


class CachedAxis(Stamp):
    """An axis (ticks, tick labels, label, grid lines) drawn once per view limits.

    The box is the axes and the axis's labels, so give it to :meth:`Explorer.dynamic`
    before anything drawn in the axes. The axis's ticks must depend on the limits only (a
    fixed locator and formatter).
    """

    def __init__(self, axis, size=8):
        super().__init__([axis], size=size,
                         region=lambda renderer: Bbox.union([axis.axes.bbox, axis.get_tightbbox(renderer)]))
        self.axis = axis

    def _key(self, renderer):
        return tuple(self.axis.get_view_interval())


class CachedText(Stamp):
    """A text drawn once per string, colour and place on the canvas, e.g. a title naming a mode.

    The text must sit on static background (a title over the blank figure, not a label
    over moving data).
    """

    def __init__(self, text, size=8):
        super().__init__([text], size=size)
        self.text = text

    def _key(self, renderer):
        t = self.text
        if not t.get_visible() or not t.get_text():
            return None
        # the box on the canvas: place, size and alignment, also of a text placed relative to another
        return t.get_text(), t.get_color(), t.get_alpha(), tuple(t.get_window_extent(renderer).bounds)


class _MarkerClipBox(BboxBase):
    def __init__(self, box):
        super().__init__()
        self._box = box
        self.set_children(box)

    def get_points(self):
        (x0, y0), (x1, y1) = self._box.get_points()
        return np.array([[x0, y0 + 1], [x1 - 1, y1]])


def marker_clip_box(ax):
    """A clip box for markers in ``ax``: they ink the pixels a region rounded from ``ax.bbox`` holds.

    Agg clips paths to the clip box rounded to whole pixels, but markers one pixel further, into
    the row below and the column right of it. Clipped to this box (``ax.bbox`` one pixel
    narrower at the right and shorter at the bottom, following the axes' place) they stop
    where paths stop, out of the neighbouring layer's box.
    """
    return _MarkerClipBox(ax.bbox)


def axis_region(axis):
    """The box an axis draws into: its tick labels and label, and its tick marks up to the
    axes (an axis without grid lines draws nothing inside the axes)."""
    ax = axis.axes

    def region(renderer):
        # the tick labels in view and the label (Axis.get_tightbbox finds the same box, slower)
        low, high = sorted(axis.get_view_interval())
        texts = [tick.label1 for tick in axis.get_major_ticks() if low <= tick.get_loc() <= high]
        boxes = [text.get_window_extent(renderer) for text in (*texts, axis.label)
                 if text.get_visible() and text.get_text()]
        if not boxes:
            return None
        tight, frame = Bbox.union(boxes), ax.get_window_extent(renderer)
        if axis.axis_name == "x":
            below = tight.y0 < frame.y0
            y0, y1 = (tight.y0, frame.y0 + PAD) if below else (frame.y1 - PAD, tight.y1)
            return Bbox.from_extents(min(tight.x0, frame.x0), y0, max(tight.x1, frame.x1), y1)
        left = tight.x0 < frame.x0
        x0, x1 = (tight.x0, frame.x0 + PAD) if left else (frame.x1 - PAD, tight.x1)
        return Bbox.from_extents(x0, min(tight.y0, frame.y0), x1, max(tight.y1, frame.y1))

    return region


class AxisLabel(Text):
    """An axis's label drawn as a text of its own, where the axis puts its (blank) label.

    An axis draws its label with its tick labels, so a label that changes with a mode
    would redraw every tick label. Give the axis a blank label (it keeps the room for
    one line) and show the words in this text, which a :class:`Stamp` can keep per mode.
    """

    def __init__(self, axis, text=""):
        super().__init__(text=text)
        self.axis = axis
        label = axis.label
        self.update_from(label)
        self.set_rotation_mode(label.get_rotation_mode())
        axis.set_label_text(" ")
        axis.axes.add_artist(self)
        self.set_clip_on(False)  # outside the axes
        self.set_in_layout(False)  # the blank label keeps its room

    def draw(self, renderer):
        label = self.axis.label  # placed by the axis at its last draw
        self.set_transform(label.get_transform())
        self.set_position(label.get_position())
        super().draw(renderer)
