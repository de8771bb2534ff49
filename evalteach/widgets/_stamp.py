"""Artists drawn once per key and then pasted back as the pixels of their own box.

A :class:`~evalteach.widgets._cached_layer.CachedLayer` keeps a copy of the whole canvas
per key, so two things that change independently (the axis of a data set, the legend of
a mode) must be stacked and keyed by every combination. A :class:`Stamp` keeps only the
pixels of the box its artists cover. Stamps in different places are independent, and a
copy is small, so a stamp can keep many keys: every text a confusion matrix has shown,
say, or the tick labels of every axis range. Text is what a picture spends its time on
(each glyph is rendered afresh on every draw), so text that repeats is worth pasting.

The price is one rule: when a stamp is drawn, its box must hold the static background
only. Pasting puts back the box as it was when the key was first drawn (background plus
the stamp's artists), so give stamps to :meth:`Explorer.dynamic` before the artists
drawn over them, and keep the boxes of stamps drawn in the same update apart, or key the
later one by the earlier one's key too.
"""
from __future__ import annotations

from matplotlib.text import Text
from matplotlib.transforms import Bbox

from ._cached_layer import CachedLayer

#: Pixels added around a box, for anti-aliased edges.
PAD = 2


class Stamp(CachedLayer):
    """Artists drawn once per key; later draws with the same key paste their box's pixels.

    Parameters
    ----------
    artists : sequence of Artist
        What the stamp draws (marked animated, so a full draw of the figure leaves them
        out); :meth:`show` may replace them.
    size : int
        Keys kept (least recently used go first).
    region : callable, optional
        ``region(renderer) -> Bbox`` in display pixels: the box the artists draw into. By
        default the union of their tight boxes; give one where that misses ink (an
        axis's tick marks lie between its tick labels and the axes).

    Notes
    -----
    The key must name everything the pixels depend on besides the canvas size and the
    axes' places, which the cache adds itself (a new pixel density or layout draws afresh).
    """

    def __init__(self, artists=(), *, size=32, region=None):
        super().__init__(size=size)
        self.region = region
        self.show(None, artists)

    def show(self, key, artists=None):
        """Draw the stamp's artists (or ``artists`` from now on) cached under ``key``."""
        self.key = key
        if artists is not None:
            self.artists = tuple(artists)
            for artist in self.artists:
                artist.set_animated(True)

    def _box(self, renderer):
        if self.region is not None:
            return self.region(renderer)
        boxes = [artist.get_tightbbox(renderer) for artist in self.artists if artist.get_visible()]
        boxes = [box for box in boxes if box is not None and box.width > 0 and box.height > 0]
        return Bbox.union(boxes) if boxes else None

    def draw(self, renderer):
        if not self.artists:
            return
        entry = self._entry(renderer)
        if entry in self._pixels:
            self._pixels.move_to_end(entry)
            pixels = self._pixels[entry]
            if pixels is not None:
                renderer.restore_region(pixels)
            return
        for artist in self.artists:
            artist.draw(renderer)
        box = self._box(renderer)
        if box is not None:  # whole pixels, padded, inside the canvas
            box = Bbox.intersection(Bbox.from_extents(box.x0 - PAD, box.y0 - PAD, box.x1 + PAD, box.y1 + PAD),
                                    Bbox.from_bounds(0, 0, renderer.width, renderer.height))
        self._pixels[entry] = None if box is None else renderer.copy_from_bbox(
            Bbox.from_extents(int(box.x0), int(box.y0), -int(-box.x1), -int(-box.y1)))
        while len(self._pixels) > self.size:
            self._pixels.popitem(last=False)


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
