"""A canvas that renders each glyph once and pastes it thereafter.

matplotlib's Agg renderer (3.11) asks FreeType to render every glyph of every text each
time the text is drawn, at the glyph's sub-pixel position; at twice the pixel density
that is about half of what an explorer's slider move costs. An explorer draws the same
few glyphs (digits, signs, units) at the same places many times a second. FreeType's
bitmap of an outline moved by whole pixels is the same bitmap moved by whole pixels, so
each glyph is rendered once per font, size, transform and sub-pixel offset (1/64 pixel,
FreeType's unit) and pasted from then on. The pixels are exactly those matplotlib draws
(``tests/test_glyphs.py`` compares them); a slider move costs 15-30% less.

Where matplotlib draws text another way (an older or newer release without the method
this overrides), the canvas is matplotlib's own.

References
----------
The FreeType Project, *FreeType Glyph Conventions*, section "Glyph outlines" (26.6
fixed-point coordinates) and the ``FT_Set_Transform`` / ``FT_Render_Glyph`` API reference.
"""
from __future__ import annotations

import math

import numpy as np
from matplotlib.backends import backend_agg
from matplotlib.backends.backend_agg import FigureCanvasAgg, RendererAgg

#: Rendered glyphs kept at most; past this the cache starts again (a few MB of bitmaps).
CAPACITY = 20_000
_glyphs = {}


def _supported():
    try:
        from matplotlib.ft2font import FT2Font, RenderMode  # noqa: F401
    except ImportError:
        return False
    return (hasattr(RendererAgg, "_draw_text_glyphs_and_boxes") and hasattr(FT2Font, "_render_glyph")
            and hasattr(FT2Font, "_set_transform") and hasattr(backend_agg, "get_hinting_flag"))


class _GlyphCachingRenderer(RendererAgg):
    """``RendererAgg`` that pastes cached glyph bitmaps (same pixels, see the module)."""

    def _draw_text_glyphs_and_boxes(self, gc, x, y, angle, glyphs, boxes):
        from matplotlib.ft2font import RenderMode

        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        flags = backend_agg.get_hinting_flag()
        antialiased = gc.get_antialiased()
        for font, size, index, slant, extend, dx, dy in glyphs:  # dy is upwards
            matrix = ((0x10000 * np.array([[cos, -sin], [sin, cos]]) @ [[extend, extend * slant], [0, 1]])
                      .round().astype(int))
            # The pen position in FreeType's 26.6 fixed point; its y is upwards.
            pen_x = round(0x40 * (x + dx * cos - dy * sin))
            pen_y = round(0x40 * (self.height - y + dx * sin + dy * cos))
            key = (font, size, self.dpi, index, flags, antialiased, matrix.tobytes(), pen_x & 63, pen_y & 63)
            glyph = _glyphs.get(key)
            if glyph is None:
                font.set_size(size, self.dpi)
                font._set_transform(matrix, [pen_x & 63, pen_y & 63])  # the sub-pixel part only
                bitmap = font._render_glyph(index, flags, RenderMode.NORMAL if antialiased else RenderMode.MONO)
                buffer = np.array(bitmap.buffer)
                if not antialiased:
                    buffer *= 0xFF
                if len(_glyphs) >= CAPACITY:
                    _glyphs.clear()
                glyph = _glyphs[key] = (buffer, bitmap.left, bitmap.top)
            buffer, left, top = glyph
            top += pen_y >> 6  # the whole pixels, added back
            # draw_text_image's y is downwards and names the bitmap's bottom row.
            self._renderer.draw_text_image(buffer, left + (pen_x >> 6),
                                           int(self.height) - top + buffer.shape[0], 0, gc)
        if boxes:  # mathtext's rules (fraction bars, roots): matplotlib draws them
            super()._draw_text_glyphs_and_boxes(gc, x, y, angle, (), boxes)


SUPPORTED = _supported()


class GlyphCachingCanvas(FigureCanvasAgg):
    """``FigureCanvasAgg`` whose renderer pastes cached glyphs (same pixels, see the module)."""

    def get_renderer(self):
        if not SUPPORTED:
            return super().get_renderer()
        width, height = self.get_width_height(physical=True)
        key = width, height, self.figure.dpi
        if self._lastKey != key:
            self.renderer = _GlyphCachingRenderer(width, height, self.figure.dpi)
            self._lastKey = key
        return self.renderer
