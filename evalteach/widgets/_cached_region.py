"""Parts of a picture drawn once per key in their own region, then pasted back as pixels.

Text is the expensive part of a picture, so an explorer keeps tick labels and titles in
the static background, drawn only on a full redraw of the figure. Some of them change
now and then but not with every control: an axis whose limits follow the data in coarse
steps, a title that names the mode. Static, each change costs a full redraw; dynamic,
every update pays for their glyphs again. A :class:`CachedRegion` sits between the two:
marked dynamic, it draws its artists the first time it meets a key, keeps a copy of the
pixels of their region, and later pastes that copy back (a memory copy of a small part
of the canvas, not a redraw).

:class:`CachedAxis` keys an axis by its limits; :class:`CachedText` keys a text by what
it says. Unlike :class:`~evalteach.widgets._cached_layer.CachedLayer`, which keeps the
whole canvas per key, each copy here holds one region, so many keys can be kept.
"""
from __future__ import annotations

from collections import OrderedDict

from matplotlib.artist import Artist
from matplotlib.transforms import Bbox


class CachedRegion(Artist):
    """Base class: draw some artists once per key into a region, then paste its pixels.

    Parameters
    ----------
    figure : matplotlib.figure.Figure
    size : int
        Keys kept (least recently used go first); each holds one copy of the region.

    Notes
    -----
    Give the region to :meth:`Explorer.dynamic` before any dynamic artist drawn over
    the same pixels: the paste covers its whole region, which must otherwise hold only
    static artists (drawn in the background) and must not overlap another region.
    Every full draw of the figure forgets the copies, since the background they were
    taken over may have changed.
    """

    def __init__(self, figure, size):
        super().__init__()
        self.size = size
        self._pixels = OrderedDict()
        figure.canvas.mpl_connect("draw_event", lambda _: self._pixels.clear())

    def _key(self, renderer):  # pragma: no cover - abstract
        """What the drawn pixels depend on (hashable)."""
        raise NotImplementedError

    def _draw_region(self, renderer):  # pragma: no cover - abstract
        """Draw the artists; return the region (a Bbox in display pixels) they cover."""
        raise NotImplementedError

    def draw(self, renderer):
        key = (self._key(renderer), renderer.width, renderer.height)
        pixels = self._pixels.get(key)
        if pixels is not None:
            self._pixels.move_to_end(key)
            renderer.restore_region(pixels)
            return
        region = self._draw_region(renderer)
        if region is None:  # nothing drawn
            return
        canvas = Bbox.from_bounds(0, 0, renderer.width, renderer.height)
        self._pixels[key] = renderer.copy_from_bbox(Bbox.intersection(region.padded(2), canvas))
        while len(self._pixels) > self.size:
            self._pixels.popitem(last=False)


class CachedAxis(CachedRegion):
    """An axis (ticks, tick labels, label, grid lines) drawn once per view limits.

    The region is the axes and the axis' labels. The axis is made animated, so that a
    full draw of the figure leaves it out; its ticks must depend on the limits only
    (a fixed locator and formatter).
    """

    def __init__(self, axis, size=8):
        super().__init__(axis.get_figure(root=True), size)
        axis.set_animated(True)
        self.axis = axis

    def _key(self, renderer):
        return tuple(self.axis.get_view_interval()), tuple(self.axis.axes.get_position().bounds)

    def _draw_region(self, renderer):
        self.axis.draw(renderer)
        return Bbox.union([self.axis.axes.bbox, self.axis.get_tightbbox(renderer)])


class CachedText(CachedRegion):
    """A text drawn once per string, colour and place on the canvas, e.g. a title naming a mode.

    The text is made animated and must sit on static background (a title over blank
    figure, not a label over moving data).
    """

    def __init__(self, text, size=8):
        super().__init__(text.get_figure(root=True), size)
        text.set_animated(True)
        self.text = text

    def _key(self, renderer):
        t = self.text
        if not t.get_visible() or not t.get_text():
            return None
        # the box on the canvas: place, size and alignment, also of a text placed relative to another
        return t.get_text(), t.get_color(), t.get_alpha(), tuple(t.get_window_extent(renderer).bounds)

    def _draw_region(self, renderer):
        if not self.text.get_visible() or not self.text.get_text():
            return None
        self.text.draw(renderer)
        return self.text.get_window_extent(renderer)
