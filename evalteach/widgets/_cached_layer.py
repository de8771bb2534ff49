"""Parts of a picture drawn once per key, then pasted back as pixels; the one pixel cache.

The explorer base keeps one background (everything not marked dynamic) and redraws the
dynamic artists over it on every update. Some artists change now and then but not with
every control: the tick labels of an axis range, the legend and axis names of a mode, a
panel whose numbers did not change. Drawn on every update they cost most of the time (text
is the expensive part of a picture); made static they force a full redraw of the figure
whenever they change. A :class:`CachedLayer` sits between the two. Given to
:meth:`Explorer.dynamic`, it draws its artists the first time it meets a key, keeps a copy
of the pixels of its box in :data:`PIXELS`, and on later draws with the same key pastes that
copy back (a memory copy, not a redraw). A copy is also keyed by the canvas size and the
axes' places, so a new pixel density or layout draws afresh.

Every layer of every explorer keeps its copies in one :class:`PixelCache`, :data:`PIXELS`,
capped in bytes: the least recently used copies go first, whichever explorer drew them, so
an explorer in use keeps what it shows and one left alone gives its room back.
``evalteach.widgets.pixel_cache`` is that object (``.clear()``, ``.limit``, ``.nbytes``).

The variants differ only in their box and their key:

- :class:`CachedLayer`: the whole canvas, or ``region(renderer)``. Use it for a panel or
  the whole picture of one mode or data set. Layers stack: a layer with ``under`` starts
  a miss by drawing that layer (from the cache), so what a mode shows is drawn once per
  mode and what a data set shows once per data set.
- :class:`Stamp`: the artists' own box (or ``region(renderer)``), padded for anti-aliased
  edges: a text, a legend, an axis's labels (:func:`axis_region`). :class:`AxisLabel`
  draws an axis's label as a text of its own, so a label that changes with a mode does not
  redraw the tick labels.
- :class:`CachedAxis`: a stamp of an axis (and the axes it labels) keyed by its limits.
- :class:`CachedText`: a stamp of a text keyed by its string, colour and place.

Text is what a picture spends its time on (at twice the pixel density a legend costs a
few milliseconds, an axis's tick labels more), so a text that keeps its words while
others change is worth a stamp; a layer that saves less than a couple of milliseconds is
not worth its memory.

Two rules follow from pasting pixels (``docs/explorers.md``, "Layers"). Give a layer to
:meth:`Explorer.dynamic` before the artists drawn over it: a paste puts back its box as it
was when the key was first drawn (background plus the layer's artists). And the boxes of
layers drawn in the same update must not overlap unless stacked (``under``) or keyed by
each other's keys. Boxes are whole pixels (:func:`whole_pixels`), split where Agg splits a
clip box; Agg clips markers (scatter dots) one pixel further, into the row below and the
column right of the box, so markers drawn next to another layer's box are clipped to
:func:`marker_clip_box`. The key must name everything the layer's pixels depend on besides
the canvas size and the axes' places.

When copies are forgotten: every full draw of the figure forgets the copies of its layers,
since the background under them may have changed; a closed or collected explorer's copies
go with its layers. The explorers draw in full only for their first picture, a new pixel
density, a relayout or after an error.
"""
from __future__ import annotations

import itertools
import weakref
from collections import OrderedDict

import numpy as np
from matplotlib.artist import Artist
from matplotlib.text import Text
from matplotlib.transforms import Bbox, BboxBase

#: Pixels added around a stamp's box, for anti-aliased edges.
PAD = 2
#: Bytes the pixel cache holds at most by default: about five full pictures at twice the
#: pixel density (a 10 x 4.4 inch picture is 1600 x 704 RGBA pixels, 4.5 MB). At 32 MB an
#: explorer driven through 150 changes kept up to 33 MB more than after its first visit to
#: each mode (TestSetReuse; issue 25's goal: 30); at 16 MB the randomization explorer's mode
#: switches redrew what they had pasted, when its layers were whole canvases
#: (``benchmarks/explorer_memory.py``, ``run.py``).
LIMIT = 24 * 2 ** 20


class PixelCache:
    """Copies of canvas regions, kept for reuse up to ``limit`` bytes in all.

    Entries are keyed by an owner (a layer) and the owner's key; the least recently used
    entries go first when a new one would pass the limit. A copy larger than the limit is
    not kept.

    Parameters
    ----------
    limit : int
        Bytes kept at most.
    """

    def __init__(self, limit=LIMIT):
        self._entries = OrderedDict()  # (owner, key) -> (pixels, bytes)
        self.nbytes = 0
        self._limit = 0
        self.limit = limit

    @property
    def limit(self):
        """Bytes kept at most; lowering it forgets the least recently used copies now."""
        return self._limit

    @limit.setter
    def limit(self, limit):
        if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 0:
            raise ValueError(f"limit must be a number of bytes (an integer >= 0), got {limit!r}")
        self._limit = int(limit)
        self._shrink()

    def __len__(self):
        return len(self._entries)

    def __contains__(self, owner_key):
        return owner_key in self._entries

    def get(self, owner, key, default=None):
        """The copy kept for ``(owner, key)`` (now the most recently used), else ``default``."""
        entry = self._entries.get((owner, key))
        if entry is None:
            return default
        self._entries.move_to_end((owner, key))
        return entry[0]

    def put(self, owner, key, pixels):
        """Keep ``pixels`` (a canvas region, or None for 'nothing drawn') for ``(owner, key)``."""
        size = 0 if pixels is None else np.asarray(pixels).nbytes
        self._drop((owner, key))
        if size > self._limit:
            return
        self._entries[owner, key] = (pixels, size)
        self.nbytes += size
        self._shrink()

    def forget(self, owner):
        """Forget every copy of ``owner``."""
        for entry in [entry for entry in self._entries if entry[0] == owner]:
            self._drop(entry)

    def clear(self):
        """Forget every copy (the next draw of each layer draws afresh)."""
        self._entries.clear()
        self.nbytes = 0

    def _drop(self, entry):
        dropped = self._entries.pop(entry, None)
        if dropped is not None:
            self.nbytes -= dropped[1]

    def _shrink(self):
        while self.nbytes > self._limit:
            _, (_, size) = self._entries.popitem(last=False)
            self.nbytes -= size

    def __repr__(self):
        return (f"<PixelCache {len(self)} copies, {self.nbytes / 2 ** 20:.1f} MB of "
                f"{self._limit / 2 ** 20:.1f} MB>")


#: The explorers' pixel cache (``evalteach.widgets.pixel_cache``).
PIXELS = PixelCache()
pixel_cache = PIXELS  # the name evalteach.widgets gives it
_owners = itertools.count()


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
        The layer this one is drawn on; a miss draws it first (from the cache).
    region : callable, optional
        ``region(renderer) -> Bbox`` in display pixels (or None: nothing to keep): the box
        kept and pasted. Default: the whole canvas.
    pad : float
        Pixels added around the box (for a box that follows text: anti-aliased edges).

    Notes
    -----
    The key must name everything the pixels depend on besides the canvas size and the
    axes' places, which the layer adds itself. Boxes are rounded by :func:`whole_pixels`
    and kept inside the canvas. Copies live in :data:`PIXELS`.
    """

    def __init__(self, artists=(), *, under=None, region=None, pad=0):
        super().__init__()
        self.under = under
        self.region = region
        self.pad = pad
        self.key = None
        self.artists = ()
        self.owner = next(_owners)
        self._canvas = None
        weakref.finalize(self, PIXELS.forget, self.owner)  # a collected layer's copies go with it
        self.show(None, artists)

    def show(self, key, artists=None):
        """Draw this layer's artists (or ``artists`` from now on) cached under ``key`` (hashable)."""
        self.key = key
        if artists is not None:
            self.artists = tuple(artists)
            for artist in self.artists:
                artist.set_animated(True)

    def clear(self):
        """Forget every copy of this layer and of the layers under it (the next draw draws afresh)."""
        PIXELS.forget(self.owner)
        if self.under is not None:
            self.under.clear()

    def _key(self, renderer):
        """What the pixels depend on besides the canvas size and the layout."""
        return self.key

    def box(self, renderer):
        """The box a copy of this layer holds now (display pixels, padded, whole pixels, inside
        the canvas), or None when it keeps nothing."""
        box = self._box(renderer)
        if box is None:
            return None
        box = Bbox.intersection(box.padded(self.pad), Bbox.from_bounds(0, 0, renderer.width, renderer.height))
        return None if box is None else whole_pixels(box)

    def _box(self, renderer):
        """The box (display pixels) to keep, or None when nothing was drawn."""
        if self.region is None:
            return Bbox.from_bounds(0, 0, renderer.width, renderer.height)
        return self.region(renderer)

    def _watch(self, figure):
        # A full draw of the figure draws a new background: forget the copies taken over the old one.
        if figure.canvas is not self._canvas:
            PIXELS.forget(self.owner)
            self._canvas = figure.canvas
            self._canvas.mpl_connect("draw_event", self._forget)  # a bound method: held weakly

    def _forget(self, _event):
        PIXELS.forget(self.owner)

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
        missing = object()
        pixels = PIXELS.get(self.owner, entry, missing)
        if pixels is not missing:
            if pixels is not None:
                renderer.restore_region(pixels)
            return
        if self.under is not None:
            self.under.draw(renderer)
        for artist in self.artists:
            artist.draw(renderer)
        box = self.box(renderer)
        PIXELS.put(self.owner, entry, None if box is None else renderer.copy_from_bbox(box))


class Stamp(CachedLayer):
    """A layer that keeps only its artists' own box: the union of their tight boxes, padded.

    Parameters
    ----------
    artists : sequence of Artist
    region : callable, optional
        ``region(renderer) -> Bbox``: the box, where the tight boxes miss ink (an axis's
        tick marks lie between its tick labels and the axes).
    """

    def __init__(self, artists=(), *, region=None):
        super().__init__(artists, region=region, pad=PAD)

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

    def __init__(self, axis):
        super().__init__([axis], region=lambda renderer: Bbox.union([axis.axes.bbox, axis.get_tightbbox(renderer)]))
        self.axis = axis

    def _key(self, renderer):
        return tuple(self.axis.get_view_interval())


class CachedText(Stamp):
    """A text drawn once per string, colour and place on the canvas, e.g. a title naming a mode.

    The text must sit on static background (a title over the blank figure, not a label
    over moving data).
    """

    def __init__(self, text):
        super().__init__([text])
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
        self.box = box
        self.set_children(box)

    def get_points(self):
        (x0, y0), (x1, y1) = self.box.get_points()
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
