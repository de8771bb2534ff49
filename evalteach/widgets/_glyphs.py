"""A canvas that renders each glyph once and pastes it thereafter.

matplotlib's Agg renderer (3.11) asks FreeType to render every glyph of every text each
time the text is drawn, at the glyph's sub-pixel position; at twice the pixel density
that is about half of what an explorer's slider move costs. An explorer draws the same
few glyphs (digits, signs, units) at the same places many times a second. FreeType's
bitmap of an outline moved by whole pixels is the same bitmap moved by whole pixels, so
each glyph is rendered once per font, size, transform and sub-pixel offset (1/64 pixel,
FreeType's unit) and pasted from then on. The pixels are exactly those matplotlib draws
(``tests/test_glyphs.py`` compares them); a slider move costs 15-30% less.

Laying out a string (FreeType loads each of its glyphs to place it) and reading a font's
line heights are likewise done once per string, font, size and dpi: for text-heavy
explorers another 20-40% of a slider move.

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
from matplotlib.font_manager import fontManager, get_font

#: Rendered glyphs kept at most; past this the cache starts again (a few MB of bitmaps).
CAPACITY = 20_000
_glyphs = {}
#: Laid-out texts (glyph indices and positions of each string) kept at most.
LAYOUTS = 4_000
_layouts = {}
_heights = {}


def _supported():
    try:
        from matplotlib.ft2font import FT2Font, RenderMode  # noqa: F401
    except ImportError:
        return False
    return (hasattr(RendererAgg, "_draw_text_glyphs_and_boxes") and hasattr(FT2Font, "_render_glyph")
            and hasattr(FT2Font, "_set_transform") and hasattr(FT2Font, "_layout") and hasattr(backend_agg, "get_hinting_flag"))


class _GlyphCachingRenderer(RendererAgg):
    """``RendererAgg`` that pastes cached glyph bitmaps (same pixels, see the module)."""

    def draw_text(self, gc, x, y, s, prop, angle, ismath=False, mtext=None):
        """matplotlib's ``draw_text``, with each string laid out once per font, size and dpi.

        FreeType's layout loads every glyph of the string; for the same string, font and
        flags it gives the same glyphs at the same offsets.
        """
        if ismath:
            return self.draw_mathtext(gc, x, y, s, prop, angle)
        features = mtext.get_fontfeatures() if mtext is not None else None
        language = mtext.get_language() if mtext is not None else None
        if isinstance(language, list):
            language = tuple(map(tuple, language))
        flags = backend_agg.get_hinting_flag()
        key = (s, hash(prop), self.dpi, flags, features, language)  # hash: a prop can change
        items = _layouts.get(key)
        if items is None:
            font = self._prepare_font(prop)
            items = tuple((item.ft_object, item.glyph_index, item.x, item.y) for item in
                          font._layout(s, flags=flags, features=features, language=language))
            if len(_layouts) >= LAYOUTS:
                _layouts.clear()
            _layouts[key] = items
        size = prop.get_size_in_points()
        self._draw_text_glyphs_and_boxes(
            gc, x, y, angle, ((font, size, index, 0, 1, dx, dy) for font, index, dx, dy in items), [])

    def _get_font_height_metrics(self, prop):
        """A font's ascent, descent and line gap in pixels, read once per font, size and dpi.

        matplotlib's ``Text`` asks a renderer for them before it reads the font's tables
        itself; the values are those tables' (OS/2, else hhea), scaled as matplotlib
        scales them, or None to leave the measuring to matplotlib.
        """
        key = (hash(prop), self.dpi)
        if key not in _heights:
            font = get_font(fontManager._find_fonts_by_props(prop))
            metrics = (None, None, None)
            for table_name, gap, ascent, descent in (("OS/2", "sTypoLineGap", "sTypoAscender", "sTypoDescender"),
                                                     ("hhea", "lineGap", "ascent", "descent")):
                table = font.get_sfnt_table(table_name)
                if table is not None:
                    scale = prop.get_size_in_points() * self.dpi / 72 / font.get_sfnt_table("head")["unitsPerEm"]
                    metrics = (table[ascent] * scale, -table[descent] * scale, table[gap] * scale)
                    break
            _heights[key] = metrics
        return _heights[key]

    def _draw_text_glyphs_and_boxes(self, gc, x, y, angle, glyphs, boxes):
        from matplotlib.ft2font import RenderMode

        cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        flags = backend_agg.get_hinting_flag()
        antialiased = gc.get_antialiased()
        matrices = {}
        for font, size, index, slant, extend, dx, dy in glyphs:  # dy is upwards
            matrix = matrices.get((slant, extend))
            if matrix is None:
                matrix = matrices[slant, extend] = (
                    (0x10000 * np.array([[cos, -sin], [sin, cos]]) @ [[extend, extend * slant], [0, 1]])
                    .round().astype(int).tobytes())
            # The pen position in FreeType's 26.6 fixed point; its y is upwards.
            pen_x = round(0x40 * (x + dx * cos - dy * sin))
            pen_y = round(0x40 * (self.height - y + dx * sin + dy * cos))
            key = (font, size, self.dpi, index, flags, antialiased, matrix, pen_x & 63, pen_y & 63)
            glyph = _glyphs.get(key)
            if glyph is None:
                font.set_size(size, self.dpi)
                font._set_transform(np.frombuffer(matrix, dtype=int).reshape(2, 2), [pen_x & 63, pen_y & 63])  # the sub-pixel part only
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
